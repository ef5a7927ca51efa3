import { describe, expect, it } from "vitest";

import { objectOf, refusalOf } from "./json-schema";

/** A schema with one required property `p` of this schema. */
function withProperty(schema: unknown): Record<string, unknown> {
  return objectOf({ p: schema });
}

describe("a JSON Schema Parley cannot ask is refused, with the path of what it cannot ask and what to write instead", () => {
  const manyProperties = Object.fromEntries(Array.from({ length: 201 }, (_, index) => [`p${index}`, { type: "string" }]));
  const cases: [string, unknown, string, string][] = [
    ["a root that is not an object schema", { type: "string" }, "type", '"type": "object"'],
    ["a root that is not JSON at all", undefined, "", "JSON object"],
    ["a root that is a list", [{ type: "object" }], "", "JSON object"],
    ["a root with no properties", { type: "object", properties: {} }, "properties", "at least one question"],
    ["an object nested more than one level", objectOf({ address: { type: "object", properties: { geo: { type: "object", properties: { lat: { type: "number" } } } } } }), "properties.address.properties.geo", "more than one level"],
    ["a $ref, which Parley does not resolve", { ...withProperty({ $ref: "#/$defs/Money" }), $defs: { Money: { type: "number" } } }, "properties.p.$ref", "does not resolve references"],
    ["a $ref at the root", { $ref: "#/$defs/Claim" }, "$ref", "does not resolve references"],
    ["a $ref beside other keywords, named before them", withProperty({ type: "string", allOf: [{ minLength: 1 }], $ref: "#/x" }), "properties.p.$ref", "$ref"],
    ["a $ref inside a nullable anyOf, as pydantic writes a nested model", withProperty({ anyOf: [{ $ref: "#/$defs/Address" }, { type: "null" }] }), "properties.p.anyOf.0.$ref", "$ref"],
    ["allOf", withProperty({ allOf: [{ type: "string" }, { minLength: 2 }] }), "properties.p.allOf", "merge"],
    ["anyOf of several shapes", withProperty({ anyOf: [{ type: "string" }, { type: "number" }] }), "properties.p.anyOf.0", '"anyOf" is supported only'],
    ["not", withProperty({ type: "string", not: { const: "x" } }), "properties.p.not", '"not"'],
    ["if/then", withProperty({ type: "string", if: { const: "a" }, then: { minLength: 2 } }), "properties.p.if", '"if"'],
    ["a oneOf that is not all consts", withProperty({ oneOf: [{ const: "a" }, { type: "string" }] }), "properties.p.oneOf.1", "list of choices"],
    ["a oneOf choice with keywords beside const", withProperty({ oneOf: [{ const: "a", minLength: 2 }] }), "properties.p.oneOf.0.minLength", '"minLength"'],
    ["patternProperties", { ...objectOf({ a: { type: "string" } }), patternProperties: { "^x": { type: "string" } } }, "patternProperties", '"properties"'],
    ["additionalProperties as a schema", { ...objectOf({ a: { type: "string" } }), additionalProperties: { type: "string" } }, "additionalProperties", '"properties"'],
    ["a free-form nested object", withProperty({ type: "object" }), "properties.p.properties", '"properties"'],
    ["a list of objects", withProperty({ type: "array", items: { type: "object", properties: { a: { type: "string" } } } }), "properties.p.items.type", "list of objects"],
    ["a list of lists", withProperty({ type: "array", items: { type: "array", items: { type: "string" } } }), "properties.p.items.type", "list of lists"],
    ["a list of yes/no answers", withProperty({ type: "array", items: { type: "boolean" } }), "properties.p.items.type", "yes/no"],
    ["a list without items", withProperty({ type: "array" }), "properties.p.items", '"items"'],
    ["a tuple as prefixItems", withProperty({ type: "array", prefixItems: [{ type: "number" }, { type: "number" }] }), "properties.p.prefixItems", "tuples"],
    ["a tuple as an items list", withProperty({ type: "array", items: [{ type: "number" }, { type: "number" }] }), "properties.p.items", "Tuples"],
    ["list items that may be null", withProperty({ type: "array", items: { type: ["string", "null"] } }), "properties.p.items.type", "cannot be null"],
    ["contains", withProperty({ type: "array", items: { type: "string" }, contains: { const: "a" } }), "properties.p.contains", '"contains"'],
    ["an unknown type", withProperty({ type: "date" }), "properties.p.type", '"type": "date"'],
    ["a property with no type", withProperty({ description: "What?" }), "properties.p", '"type"'],
    ["a type array other than X and null", withProperty({ type: ["string", "number"] }), "properties.p.type", "several types"],
    ["a type that is only null", withProperty({ type: "null" }), "properties.p.type", "nothing to ask"],
    ["an enum mixing text and numbers", withProperty({ enum: ["a", 1] }), "properties.p.enum.1", "one kind"],
    ["an enum with an object in it", withProperty({ enum: ["a", { b: 1 }] }), "properties.p.enum.1", "not lists or objects"],
    ["an empty enum", withProperty({ enum: [] }), "properties.p.enum", "non-empty"],
    ["an enum whose values are not of its type", withProperty({ type: "integer", enum: [1, 1.5] }), "properties.p.enum.1", '"type": "integer"'],
    ["an enum with null whose type does not allow null", withProperty({ type: "string", enum: ["a", null] }), "properties.p.enum", "null"],
    ["an enum combined with a string keyword", withProperty({ type: "string", enum: ["a"], maxLength: 1 }), "properties.p.maxLength", "list only the allowed values"],
    ["an enum beside oneOf", withProperty({ enum: ["a"], oneOf: [{ const: "a" }] }), "properties.p.oneOf", "one of"],
    ["too many choices", withProperty({ enum: Array.from({ length: 1001 }, (_, index) => `v${index}`) }), "properties.p.enum", "at most 1000"],
    ["too many properties", { type: "object", properties: manyProperties }, "properties.p200", "more than 200"],
    ["the name __proto__", JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string"}}}') as unknown, "properties.__proto__", "not allowed"],
    ["the name constructor", objectOf({ constructor: { type: "string" } }), "properties.constructor", "not allowed"],
    ["the name prototype", objectOf({ prototype: { type: "string" } }), "properties.prototype", "not allowed"],
    ["a name with a dot", objectOf({ "a.b": { type: "string" } }), "properties.a.b", "dot"],
    ["a required name that is not a property", { type: "object", properties: { a: { type: "string" } }, required: ["a", "b"] }, "required.1", '"b"'],
    ["a pattern that is not a valid regular expression", withProperty({ type: "string", pattern: "([a-z" }), "properties.p.pattern", "not a valid JavaScript regular expression"],
    ["a format Parley does not check", withProperty({ type: "string", format: "ipv4" }), "properties.p.format", '"ipv4"'],
    ["the draft-4 boolean exclusiveMinimum", withProperty({ type: "number", minimum: 0, exclusiveMinimum: true }), "properties.p.exclusiveMinimum", "draft-4"],
    ["bounds no answer could pass", withProperty({ type: "number", minimum: 5, maximum: 1 }), "properties.p", "no answer could pass"],
    ["lengths no answer could pass", withProperty({ type: "string", minLength: 5, maxLength: 1 }), "properties.p.minLength", "no answer could pass"],
    ["a negative length", withProperty({ type: "string", maxLength: -1 }), "properties.p.maxLength", "0 or more"],
    ["a default the property itself refuses", withProperty({ type: "integer", maximum: 5, default: 9 }), "properties.p.default", "Must be at most 5"],
    ["a default of null on a property that cannot be null", withProperty({ type: "string", default: null }), "properties.p.default", "null"],
    ["a default for a whole nested object", withProperty({ type: "object", properties: { a: { type: "string" } }, default: {} }), "properties.p.default", "whole object"],
    ["a nested object that may be null", withProperty({ type: ["object", "null"], properties: { a: { type: "string" } } }), "properties.p", "null"],
    ["a schema that is true instead of an object", withProperty(true), "properties.p", "schema object"],
    ["OpenAPI 3.0's nullable", withProperty({ type: "string", nullable: true }), "properties.p.nullable", '["string", "null"]'],
    ["a schema far too large", withProperty({ type: "string", description: "x".repeat(1_000_001) }), "", "at most 1000000"],
  ];
  for (const [name, schema, path, words] of cases) {
    it(`refuses ${name}`, () => {
      const refusal = refusalOf(schema);
      expect(refusal.path).toBe(path);
      expect(refusal.message).toContain(words);
    });
  }

  it("refuses with a message, never by throwing, when reading the schema itself throws", () => {
    const hostile = {
      type: "object",
      get properties(): never {
        throw new Error("boom");
      },
    };
    expect(refusalOf(hostile)).toEqual({ path: "", message: "The schema could not be read as JSON. Send a JSON object." });
  });
});
