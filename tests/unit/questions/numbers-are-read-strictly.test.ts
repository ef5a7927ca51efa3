import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";
import { validateTextAnswers } from "@/lib/questions/validate-answer";

import { fieldOf } from "./field";

describe("numbers are read from digits only, with a plain message otherwise", () => {
  for (const [text, value] of [
    ["12", 12],
    [" 3.5 ", 3.5],
    ["-4", -4],
    [".5", 0.5],
    ["1e3", 1000],
  ] as const) {
    it(`reads ${JSON.stringify(text)} as ${value}`, () => {
      expect(parseTextAnswer(fieldOf(z.number()), text)).toEqual({ ok: true, value });
    });
  }

  for (const text of ["abc", "NaN", "Infinity", "0x10", "1,000", "12abc", "1 2"]) {
    it(`refuses ${JSON.stringify(text)} in plain words, not as NaN`, () => {
      const parsed = parseTextAnswer(fieldOf(z.number()), text);
      expect(parsed).toEqual({ ok: false, message: `"${text}" is not a number. Type digits, like 12 or 3.5.` });
    });
  }

  it("refuses a number too large to hold", () => {
    expect(parseTextAnswer(fieldOf(z.number()), "1e400")).toEqual({ ok: false, message: '"1e400" is too large a number.' });
  });

  it("leaves a fraction typed for an integer to the schema's own words", async () => {
    const result = await validateTextAnswers(z.object({ guests: z.int() }), { guests: "2.5" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { guests: ["Invalid input: expected int, received number"] } });
  });

  it("puts the plain message on the field instead of the schema's complaint about the gap", async () => {
    const result = await validateTextAnswers(z.object({ amount: z.number() }), { amount: "ten" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { amount: ['"ten" is not a number. Type digits, like 12 or 3.5.'] } });
  });
});
