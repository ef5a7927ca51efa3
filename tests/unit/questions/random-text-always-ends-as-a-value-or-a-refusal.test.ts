import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseFormAnswer } from "@/lib/questions/form-answer";
import { parseTextAnswer } from "@/lib/questions/parse-text-answer";
import { validateTextAnswers } from "@/lib/questions/validate-answer";

import { fieldOf } from "./field";

const kinds: [string, z.ZodType][] = [
  ["text", z.string().min(1).max(20)],
  ["number", z.number().min(0)],
  ["integer", z.int().max(100)],
  ["boolean", z.boolean()],
  ["enum", z.enum(["bank_transfer", "payroll", "card_refund"])],
  ["numeric enum", z.literal([10, 20, 30])],
  ["multi-choice", z.array(z.enum(["red", "green", "blue"])).min(1)],
  ["list of text", z.array(z.string().max(5))],
  ["list of numbers", z.array(z.number())],
  ["ISO date", z.iso.date()],
  ["Date", z.date()],
  ["nullable text with a default", z.string().nullable().default("x")],
  ["optional nullable number", z.number().nullish()],
  ["coerced number", z.coerce.number()],
];

/** Text a person might type, and text nobody would: words, digits, commas, dashes, any unicode. */
const typed = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: fc.constantFrom("1", "2", "3", ",", " ", "-", ".", "e", "y", "n", "none", "red", "0", "2025-02-29", "\t") }),
  fc.constantFrom("", " ", "-", "none", "NaN", "Infinity", "1e400", "0x10", ",,,", "__proto__", "constructor"),
);

describe("whatever is typed, a field's answer ends as a value or a refusal, never a crash", () => {
  for (const [name, schema] of kinds) {
    const field = fieldOf(schema);

    it(`reads any text for a ${name} field as a value or a plain message`, () => {
      fc.assert(
        fc.property(typed, (text) => {
          const parsed = parseTextAnswer(field, text);
          if (!parsed.ok) expect(parsed.message.length).toBeGreaterThan(0);
        }),
        { numRuns: 2000 },
      );
    });

    it(`reads any posted strings for a ${name} field as a value or a plain message`, () => {
      fc.assert(
        fc.property(fc.array(typed, { maxLength: 4 }), (entries) => {
          const parsed = parseFormAnswer(field, entries);
          if (!parsed.ok) expect(parsed.message.length).toBeGreaterThan(0);
        }),
        { numRuns: 1000 },
      );
    });

    it(`judges any text for a ${name} field as a typed value or at least one refusal on that field`, async () => {
      const questionnaire = z.object({ field: schema });
      await fc.assert(
        fc.asyncProperty(typed, async (text) => {
          const result = await validateTextAnswers(questionnaire, { field: text });
          if (result.ok) expect(questionnaire.safeParse(result.raw).success).toBe(true);
          else {
            expect(result.refusals.length).toBeGreaterThan(0);
            expect(Object.keys(result.fieldErrors).every((path) => path === "field")).toBe(true);
          }
        }),
        { numRuns: 1000 },
      );
    });
  }
});
