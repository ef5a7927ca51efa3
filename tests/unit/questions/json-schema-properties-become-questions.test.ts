import { describe, expect, it } from "vitest";

import { specFromSchema } from "@/lib/questions/spec-from-schema";

import { objectOf, questionOf, zodFrom } from "./json-schema";

describe("each property of a JSON Schema becomes a question, as a hand-written zod field would", () => {
  it("asks a property's description", () => {
    expect(questionOf({ type: "number", description: "How much did you spend?" }).question).toBe("How much did you spend?");
  });

  it("asks a property's title when it has no description", () => {
    expect(questionOf({ type: "string", title: "Merchant" }).question).toBe("Merchant");
  });

  it("prefers the description to the title", () => {
    expect(questionOf({ type: "string", title: "Merchant", description: "Where did you buy it?" }).question).toBe("Where did you buy it?");
  });

  it("asks a readable form of the name when there is neither", () => {
    const spec = specFromSchema(zodFrom(objectOf({ merchantName: { type: "string" } })));
    expect(spec.fields[0]?.question).toBe("Merchant name");
  });

  it("takes the questionnaire's title and description from the root", () => {
    const spec = specFromSchema(zodFrom({ ...objectOf({ a: { type: "string" } }), title: "Reimbursement", description: "How to pay you back" }));
    expect(spec).toMatchObject({ title: "Reimbursement", description: "How to pay you back" });
  });

  it("keeps the properties in the schema's order", () => {
    const spec = specFromSchema(zodFrom(objectOf({ zeta: { type: "string" }, alpha: { type: "string" }, mid: { type: "boolean" } })));
    expect(spec.fields.map((field) => field.path)).toEqual(["zeta", "alpha", "mid"]);
  });

  it("gives each type its kind of question", () => {
    const kinds = {
      text: questionOf({ type: "string" }).kind,
      number: questionOf({ type: "number" }).kind,
      integer: questionOf({ type: "integer" }).kind,
      boolean: questionOf({ type: "boolean" }).kind,
      date: questionOf({ type: "string", format: "date" }).kind,
      enum: questionOf({ enum: ["a", "b"] }).kind,
      list: questionOf({ type: "array", items: { type: "string" } }).kind,
      numberList: questionOf({ type: "array", items: { type: "integer" } }).itemKind,
      multiChoice: questionOf({ type: "array", items: { enum: ["a", "b"] } }).kind,
    };
    expect(kinds).toEqual({
      text: "text",
      number: "number",
      integer: "integer",
      boolean: "boolean",
      date: "date",
      enum: "enum",
      list: "list",
      numberList: "integer",
      multiChoice: "multi-choice",
    });
  });

  it("reads a date as an ISO day string", () => {
    expect(questionOf({ type: "string", format: "date" })).toMatchObject({ kind: "date", dateValue: "string" });
  });

  it("makes a property not in required optional, and one in required not", () => {
    const spec = specFromSchema(zodFrom(objectOf({ must: { type: "string" }, may: { type: "string" } }, ["may"])));
    expect(spec.fields.map((field) => [field.path, field.optional])).toEqual([
      ["must", false],
      ["may", true],
    ]);
  });

  it('makes a property of type [X, "null"] nullable', () => {
    expect(questionOf({ type: ["string", "null"] })).toMatchObject({ kind: "text", nullable: true, optional: false });
  });

  it('makes a property written anyOf [X, {"type": "null"}] nullable, as pydantic and zod write it', () => {
    expect(questionOf({ anyOf: [{ type: "integer", minimum: 1 }, { type: "null" }], description: "How many?" })).toMatchObject({
      question: "How many?",
      kind: "integer",
      nullable: true,
      hints: { min: 1, step: 1 },
    });
  });

  it("records a default, a default of false included", () => {
    expect([questionOf({ type: "string", default: "EUR" }), questionOf({ type: "boolean", default: false })].map((field) => [field.hasDefault, field.default])).toEqual([
      [true, "EUR"],
      [true, false],
    ]);
  });

  it("records a default of null on a nullable property", () => {
    expect(questionOf({ type: ["string", "null"], default: null }, false)).toMatchObject({ hasDefault: true, default: null, nullable: true });
  });

  it("hints the lengths of text", () => {
    expect(questionOf({ type: "string", minLength: 2, maxLength: 40 }).hints).toEqual({ minLength: 2, maxLength: 40 });
  });

  it("hints the bounds of a number, exclusive ones marked", () => {
    expect(questionOf({ type: "number", exclusiveMinimum: 0, maximum: 10 }).hints).toEqual({ min: 0, minExclusive: true, max: 10 });
  });

  it("hints step 1 for an integer and the step of multipleOf", () => {
    expect([questionOf({ type: "integer", minimum: 1 }).hints, questionOf({ type: "number", multipleOf: 0.25 }).hints]).toEqual([{ min: 1, step: 1 }, { step: 0.25 }]);
  });

  it("names the email and URL formats", () => {
    expect([questionOf({ type: "string", format: "email" }).hints, questionOf({ type: "string", format: "uri" }).hints]).toEqual([{ format: "email" }, { format: "url" }]);
  });

  it("hints the fewest and most items of a list", () => {
    expect(questionOf({ type: "array", items: { type: "string" }, minItems: 1, maxItems: 5 }).hints).toEqual({ minItems: 1, maxItems: 5 });
  });

  it("groups the properties of a nested object under its description, by dotted path", () => {
    const spec = specFromSchema(
      zodFrom(
        objectOf({
          address: { type: "object", description: "Where do you live?", properties: { city: { type: "string" }, zip: { type: "string" } }, required: ["city"] },
        }),
      ),
    );
    expect(spec.groups).toEqual([{ path: "address", heading: "Where do you live?", optional: false }]);
    expect(spec.fields.map((field) => [field.path, field.group, field.optional])).toEqual([
      ["address.city", "address", false],
      ["address.zip", "address", true],
    ]);
  });

  it("makes a nested object not in required an optional group", () => {
    const spec = specFromSchema(zodFrom(objectOf({ address: { type: "object", properties: { city: { type: "string" } } } }, ["address"])));
    expect(spec.groups).toEqual([{ path: "address", heading: "Address", optional: true }]);
  });
});
