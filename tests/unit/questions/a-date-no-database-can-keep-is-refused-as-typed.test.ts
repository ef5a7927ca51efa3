import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";

import { fieldOf } from "./field";

describe("a date no database can keep is refused as typed", () => {
  for (const schema of [z.iso.date(), z.date()]) {
    it(`refuses the year 0 for ${schema.def.type === "date" ? "z.date()" : "z.iso.date()"}, saying to check the year`, () => {
      expect(parseTextAnswer(fieldOf(schema), "0000-01-01")).toEqual({
        ok: false,
        message: '"0000-01-01" is before the year 1. Check the year, for example 2025-03-14.',
      });
    });
  }

  it("still takes the first day of the year 1", () => {
    expect(parseTextAnswer(fieldOf(z.iso.date()), "0001-01-01")).toEqual({ ok: true, value: "0001-01-01" });
  });
});
