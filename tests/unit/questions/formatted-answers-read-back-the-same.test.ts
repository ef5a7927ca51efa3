import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";

import { formatAnswerText } from "@/lib/questions/format-answer-text";
import { parseTextAnswer } from "@/lib/questions/parse-text-answer";

import { fieldOf } from "./field";

/** Text a person could type back unchanged: trimmed, not empty, no commas (lists split on them). */
const word = fc.string({ minLength: 1, maxLength: 12 }).map((text) => text.replaceAll(",", "").trim()).filter((text) => text !== "");

describe("a value written out for prefill or a terminal default reads back as the same value", () => {
  const cases: [string, z.ZodType, fc.Arbitrary<unknown>][] = [
    ["text", z.string(), word],
    ["a number", z.number(), fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Object.is(value, -0))],
    ["an integer", z.int(), fc.integer()],
    ["a boolean", z.boolean(), fc.boolean()],
    ["an enum", z.enum(["bank_transfer", "payroll", "card_refund"]), fc.constantFrom("bank_transfer", "payroll", "card_refund")],
    ["choices", z.array(z.enum(["a", "b", "c"])), fc.uniqueArray(fc.constantFrom("a", "b", "c"), { minLength: 1 })],
    ["a list", z.array(z.string()), fc.array(word, { minLength: 1, maxLength: 5 })],
    ["an ISO date", z.iso.date(), fc.date({ min: new Date("0001-01-01"), max: new Date("9999-12-31"), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10))],
    ["a nullable number's none", z.number().nullable(), fc.constant(null)],
  ];
  for (const [name, schema, values] of cases) {
    it(`reads back ${name}`, () => {
      const field = fieldOf(schema);
      fc.assert(
        fc.property(values, (value) => {
          expect(parseTextAnswer(field, formatAnswerText(field, value))).toEqual({ ok: true, value });
        }),
        { numRuns: 500 },
      );
    });
  }

  it("writes a Date as its ISO day", () => {
    expect(formatAnswerText(fieldOf(z.date()), new Date("2025-03-14T00:00:00Z"))).toBe("2025-03-14");
  });

  it("writes a missing value as an empty line", () => {
    expect(formatAnswerText(fieldOf(z.string().optional()), undefined)).toBe("");
  });
});
