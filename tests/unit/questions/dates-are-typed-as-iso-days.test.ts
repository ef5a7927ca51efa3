import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";

import { fieldOf } from "./field";

describe("dates are typed as ISO days, YYYY-MM-DD", () => {
  it("gives the ISO string itself for z.iso.date()", () => {
    expect(parseTextAnswer(fieldOf(z.iso.date()), "2025-03-14")).toEqual({ ok: true, value: "2025-03-14" });
  });

  it("gives a Date at UTC midnight for z.date()", () => {
    const parsed = parseTextAnswer(fieldOf(z.date()), "2025-03-14");
    expect(parsed.ok && parsed.value instanceof Date && parsed.value.toISOString()).toBe("2025-03-14T00:00:00.000Z");
  });

  it("keeps years before 100 as they are", () => {
    const parsed = parseTextAnswer(fieldOf(z.date()), "0042-01-01");
    expect(parsed.ok && parsed.value instanceof Date && parsed.value.getUTCFullYear()).toBe(42);
  });

  for (const text of ["2025-02-30", "2025-13-01", "14/03/2025", "2025-3-14", "tomorrow", "2025-03-14T10:00"]) {
    it(`refuses ${text} with an example`, () => {
      expect(parseTextAnswer(fieldOf(z.iso.date()), text)).toEqual({
        ok: false,
        message: `"${text}" is not a date. Type it as YYYY-MM-DD, for example 2025-03-14.`,
      });
    });
  }

  it("accepts 29 February in a leap year", () => {
    expect(parseTextAnswer(fieldOf(z.iso.date()), "2024-02-29")).toEqual({ ok: true, value: "2024-02-29" });
  });
});
