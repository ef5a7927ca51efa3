import fc from "fast-check";
import { describe, expect, it } from "vitest";

import { schemaFromJsonSchema, type SchemaFromJsonSchemaResult } from "@/lib/questions/schema-from-json-schema";
import { specFromSchema } from "@/lib/questions/spec-from-schema";
import { validateFormAnswer } from "@/lib/questions/validate-answer";

/** What schemaFromJsonSchema says only when reading the input itself threw; JSON never should. */
const UNREADABLE = "The schema could not be read as JSON. Send a JSON object.";

function expectWellFormed(result: SchemaFromJsonSchemaResult): void {
  if (result.ok) {
    const spec = specFromSchema(result.schema);
    expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
    return;
  }
  expect(typeof result.path).toBe("string");
  expect(result.message.length).toBeGreaterThan(0);
}

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const word = fc.stringMatching(/^[a-z]{1,5}$/);
const name = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,6}$/);
const oddName = fc.constantFrom("__proto__", "constructor", "prototype", "a.b", "");

/** Keywords Parley implements, refuses or has never heard of, with values that are sometimes wrong. */
const stray = fc.tuple(
  fc.constantFrom("multipleOf", "uniqueItems", "minItems", "format", "pattern", "minimum", "$ref", "allOf", "not", "nullable", "examples", "x-note", "title", "description", "errorMessage", "default", "const", "maxLenght"),
  fc.jsonValue({ maxDepth: 2 }),
);

const choice = fc.oneof(word, fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }));
const choices = fc.array(choice, { maxLength: 5 });

/** Properties Parley can ask, with the keywords it implements in sensible combinations. */
const askable: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom("string", ["string", "null"]),
      minLength: optional(fc.integer({ min: 0, max: 2 })),
      maxLength: optional(fc.integer({ min: 3, max: 12 })),
      pattern: optional(fc.constantFrom("^[a-z]+$", "[0-9]", "\\p{L}")),
      format: optional(fc.constantFrom("email", "uri", "date", "date-time")),
      errorMessage: optional(word),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: fc.constantFrom("number", "integer", ["integer", "null"]),
      minimum: optional(fc.integer({ min: -5, max: 0 })),
      maximum: optional(fc.integer({ min: 1, max: 5 })),
      exclusiveMinimum: optional(fc.integer({ min: -9, max: -6 })),
      multipleOf: optional(fc.constantFrom(0.5, 1)),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constantFrom("boolean", ["boolean", "null"]), default: optional(fc.boolean()) }, { requiredKeys: ["type"] }),
  fc.uniqueArray(word, { minLength: 1, maxLength: 5 }).chain((values) => fc.record({ enum: fc.constant(values), default: optional(fc.constantFrom(...values)) }, { requiredKeys: ["enum"] })),
  fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 4 }).map((values) => ({ type: "integer", enum: values })),
  fc.record({ const: fc.oneof(word, fc.integer(), fc.boolean()) }),
  fc.uniqueArray(word, { minLength: 1, maxLength: 4 }).chain((values) => fc.record({ oneOf: fc.tuple(...values.map((value) => fc.record({ const: fc.constant(value), title: optional(word), description: optional(word) }))) })),
  fc.record({ anyOf: fc.tuple(fc.record({ type: fc.constantFrom("string", "number") }), fc.constant({ type: "null" })) }),
  fc.record(
    {
      type: fc.constant("array"),
      items: fc.oneof(fc.record({ type: fc.constantFrom("string", "number", "integer") }), fc.uniqueArray(word, { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values }))),
      minItems: optional(fc.integer({ min: 0, max: 1 })),
      maxItems: optional(fc.integer({ min: 2, max: 3 })),
      uniqueItems: optional(fc.boolean()),
    },
    { requiredKeys: ["type", "items"] },
  ),
);

/** Properties that are usually wrong: bad values, refused keywords, mixed choices, lists of objects. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom("string", ["string", "number"], "null", "date", "object", ["object", "null"]),
      minLength: optional(fc.integer({ min: -1, max: 4 })),
      maxLength: optional(fc.integer({ min: 0, max: 2 })),
      pattern: optional(fc.constantFrom("(", "^$", 3)),
      format: optional(fc.constantFrom("uuid", "date", 7)),
      default: optional(fc.oneof(word, fc.constant(null), fc.integer())),
      errorMessage: optional(fc.oneof(fc.constant(""), fc.constant({ minLength: "x" }))),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: fc.constantFrom("number", "integer"),
      minimum: optional(fc.integer({ min: -5, max: 5 })),
      maximum: optional(fc.integer({ min: -5, max: 5 })),
      exclusiveMinimum: optional(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.boolean())),
      exclusiveMaximum: optional(fc.integer({ min: -5, max: 5 })),
      multipleOf: optional(fc.constantFrom(0, -1, "2")),
      default: optional(fc.oneof(fc.integer({ min: -6, max: 6 }), fc.constant(0.5), fc.constant(null))),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: optional(fc.constantFrom("string", "integer", "boolean", ["string", "null"])), enum: choices, default: optional(choice) }, { requiredKeys: ["enum"] }),
  fc.record({ oneOf: fc.array(fc.oneof(fc.record({ const: choice }), fc.constant({ type: "null" }), fc.constant({ type: "string" })), { maxLength: 4 }) }),
  fc.record({ anyOf: fc.tuple(fc.record({ type: fc.constantFrom("string", "object") }), fc.constant({ type: "null" })), default: optional(fc.jsonValue({ maxDepth: 1 })) }),
  fc.record({
    type: fc.constant("array"),
    items: fc.oneof(
      fc.record({ type: fc.constantFrom("boolean", "object", "array", ["string", "null"]) }),
      fc.record({ enum: choices }),
      fc.array(fc.record({ type: fc.constant("string") }), { maxLength: 2 }),
    ),
    default: optional(fc.array(choice, { maxLength: 3 })),
  }),
  fc.tuple(askable, stray).map(([schema, [keyword, value]]) => ({ ...schema, [keyword]: value })),
  fc.constantFrom(true, false, null, "string", []),
);

const property: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.tuple(askable, fc.record({ title: optional(word), description: optional(word) }, { requiredKeys: [] })).map(([schema, annotations]) => ({ ...annotations, ...schema })), weight: 12 },
  { arbitrary: hostile, weight: 1 },
);

const object = (inner: fc.Arbitrary<unknown>) =>
  fc
    .tuple(fc.dictionary(fc.oneof({ arbitrary: name, weight: 30 }, { arbitrary: oddName, weight: 1 }), inner, { minKeys: 1, maxKeys: 5 }), fc.array(name, { maxLength: 1 }), fc.nat(9))
    .map(([properties, extraRequired, dice]) => {
      const names = Object.keys(properties);
      const required = dice === 0 ? [...names, ...extraRequired] : names.filter((_, index) => index % 2 === dice % 2);
      return { type: "object", properties, required, additionalProperties: false };
    });

const nested = object(fc.oneof(property, property, property, property, object(property)));
const root = object(fc.oneof(property, property, property, property, nested));

const typed = fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom("", "-", "none", "1", "2", "y", "on", "2025-03-14", "2025-03-14T09:30:00Z", "a@b.co", "https://x.io", "a, b", "0.5"));

describe("whatever JSON Schema a caller sends, it ends as an askable schema or a refusal, never an exception", () => {
  it("never throws on arbitrary values, JSON or not", () => {
    fc.assert(
      fc.property(fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true }), (value) => {
        expectWellFormed(schemaFromJsonSchema(value));
      }),
      { numRuns: 1000 },
    );
  });

  it("reads arbitrary JSON without ever failing to read it", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.record({ type: fc.constant("object"), properties: fc.dictionary(fc.string(), fc.jsonValue()) })), (value) => {
        const result = schemaFromJsonSchema(value);
        expectWellFormed(result);
        if (!result.ok) expect(result.message).not.toBe(UNREADABLE);
      }),
      { numRuns: 1000 },
    );
  });

  it("gives schemas that derive a spec and judge random forms as a value or refusals on real fields", async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(root, fc.array(fc.option(fc.oneof(typed, fc.array(typed, { maxLength: 3 })), { nil: undefined }), { minLength: 12, maxLength: 12 }), async (json, posted) => {
        const result = schemaFromJsonSchema(json);
        expectWellFormed(result);
        if (!result.ok) {
          expect(result.message).not.toBe(UNREADABLE);
          return;
        }
        accepted += 1;
        const spec = specFromSchema(result.schema);
        const form = Object.fromEntries(spec.fields.map((field, index) => [field.path, posted[index % posted.length]]));
        const verdict = await validateFormAnswer(result.schema, form, spec);
        const paths = new Set(spec.fields.map((field) => field.path));
        if (!verdict.ok) {
          expect(verdict.refusals.length).toBeGreaterThan(0);
          for (const path of Object.keys(verdict.fieldErrors)) expect(paths.has(path)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
    // Guards the property above against a generator that only ever produces refused schemas.
    expect(accepted).toBeGreaterThan(100);
  });
});
