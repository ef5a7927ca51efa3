import { describe, expect, it } from "vitest";
import { z } from "zod";

import type { FieldKind, QuestionField } from "@/lib/questions/question-spec";
import { specFromSchema } from "@/lib/questions/spec-from-schema";

function only(schema: z.ZodType): QuestionField {
  const [field] = specFromSchema(z.object({ field: schema })).fields;
  if (field === undefined) throw new Error("no field");
  return field;
}

describe("each field is asked according to its kind", () => {
  const cases: [string, z.ZodType, FieldKind][] = [
    ["a string is text", z.string(), "text"],
    ["an email is text", z.email(), "text"],
    ["a number is a number", z.number(), "number"],
    ["z.number().int() is an integer", z.number().int(), "integer"],
    ["z.int() is an integer", z.int(), "integer"],
    ["z.coerce.number() is a number", z.coerce.number(), "number"],
    ["a boolean is yes/no", z.boolean(), "boolean"],
    ["an enum offers its values", z.enum(["a", "b"]), "enum"],
    ["a union of literals offers its values", z.union([z.literal("a"), z.literal("b")]), "enum"],
    ["a multi-valued literal offers its values", z.literal(["a", "b"]), "enum"],
    ["a list of enum values is a multiple choice", z.array(z.enum(["a", "b"])), "multi-choice"],
    ["a list of strings is one comma-separated line", z.array(z.string()), "list"],
    ["z.iso.date() is a date", z.iso.date(), "date"],
    ["z.date() is a date", z.date(), "date"],
    ["a string with a transform is asked as the string it starts from", z.string().transform((text) => text.length), "text"],
    ["a string or null is a nullable string", z.union([z.string(), z.null()]), "text"],
  ];
  for (const [name, schema, kind] of cases) {
    it(name, () => {
      expect(only(schema).kind).toBe(kind);
    });
  }

  it("reads list items by their own kind", () => {
    expect([only(z.array(z.number())).itemKind, only(z.array(z.int())).itemKind, only(z.array(z.iso.date())).itemKind]).toEqual([
      "number",
      "integer",
      "date",
    ]);
  });

  it("records whether a date is taken as an ISO string or as a Date", () => {
    expect([only(z.iso.date()).dateValue, only(z.date()).dateValue]).toEqual(["string", "date"]);
  });
});
