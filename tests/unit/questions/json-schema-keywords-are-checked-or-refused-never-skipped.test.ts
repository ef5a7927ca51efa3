import { describe, expect, it } from "vitest";

import { specFromSchema } from "@/lib/questions/spec-from-schema";
import { validateAnswer } from "@/lib/questions/validate-answer";

import { objectOf, refusalOf, zodFrom } from "./json-schema";

describe("every keyword of a JSON Schema is either checked, an annotation, or refused — never silently skipped", () => {
  it("ignores annotations and vendor extensions", () => {
    const schema = zodFrom({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "https://example.com/claim",
      $comment: "v2",
      "x-owner": "finance",
      type: "object",
      additionalProperties: false,
      properties: {
        amount: { type: "number", examples: [12], readOnly: false, deprecated: false, "x-unit": "EUR", $comment: "in euros" },
      },
      required: ["amount"],
    });
    expect(specFromSchema(schema).fields.map((field) => field.path)).toEqual(["amount"]);
  });

  it("drops keys the schema does not list from the answer, whether additionalProperties is false or absent", async () => {
    for (const additionalProperties of [false, true, undefined]) {
      const result = await validateAnswer(zodFrom({ ...objectOf({ name: { type: "string" } }), additionalProperties }), { name: "Ana", admin: true });
      expect(result).toMatchObject({ ok: true, value: { name: "Ana" } });
      expect(result.ok && "admin" in result.value).toBe(false);
    }
  });

  it("checks multipleOf rather than skipping it", async () => {
    const result = await validateAnswer(zodFrom(objectOf({ hours: { type: "number", multipleOf: 0.5 } })), { hours: 1.25 });
    expect(result).toMatchObject({ ok: false, fieldErrors: { hours: ["Must be a multiple of 0.5"] } });
  });

  it("refuses a keyword it does not know, such as a misspelling, so the check it meant is not lost", () => {
    expect(refusalOf(objectOf({ code: { type: "string", maxLenght: 3 } }))).toEqual({
      path: "properties.code.maxLenght",
      message: '"maxLenght" is not a keyword Parley knows, so it cannot check it; remove it (or prefix a vendor extension with "x-").',
    });
  });

  it("refuses a keyword on a type it does not apply to", () => {
    expect(refusalOf(objectOf({ amount: { type: "number", maxLength: 3 } }))).toEqual({
      path: "properties.amount.maxLength",
      message: '"maxLength" applies to strings, but this is of type "number".',
    });
  });

  it("refuses a title or description that is not text", () => {
    expect(refusalOf(objectOf({ amount: { type: "number", description: 3 } }))).toEqual({ path: "properties.amount.description", message: '"description" must be text.' });
  });
});
