import { describe, expect, it } from "vitest";
import { z } from "zod";

import type { FieldHints } from "@/lib/questions/question-spec";
import { specFromSchema } from "@/lib/questions/spec-from-schema";

function hints(schema: z.ZodType): FieldHints | undefined {
  return specFromSchema(z.object({ field: schema })).fields[0]?.hints;
}

describe("the browser gets hints from the schema's checks", () => {
  it("gives maxlength and minlength from .max() and .min()", () => {
    expect(hints(z.string().min(2).max(40))).toEqual({ minLength: 2, maxLength: 40 });
  });

  it("gives both lengths from .length()", () => {
    expect(hints(z.string().length(3))).toEqual({ minLength: 3, maxLength: 3 });
  });

  it("gives a pattern from one .regex() without flags", () => {
    expect(hints(z.string().regex(/^[A-Z]{3}$/))).toEqual({ pattern: "^[A-Z]{3}$" });
  });

  it("gives no pattern for a regex with flags, which the browser cannot carry", () => {
    expect(hints(z.string().regex(/^[a-z]+$/i))).toEqual({});
  });

  it("gives min, max and step 1 for an integer range", () => {
    expect(hints(z.int().min(1).max(10))).toEqual({ min: 1, max: 10, step: 1 });
  });

  it("marks exclusive bounds from .gt() and .lt()", () => {
    expect(hints(z.number().gt(0).lt(1))).toEqual({ min: 0, minExclusive: true, max: 1, maxExclusive: true });
  });

  it("gives step from .multipleOf()", () => {
    expect(hints(z.number().multipleOf(0.25))).toEqual({ step: 0.25 });
  });

  it("gives ISO days as the bounds of a date", () => {
    expect(hints(z.date().min(new Date("2025-01-01T00:00:00Z")).max(new Date("2025-12-31T00:00:00Z")))).toEqual({
      min: "2025-01-01",
      max: "2025-12-31",
    });
  });

  it("names a string format such as email", () => {
    expect(hints(z.email())).toEqual({ format: "email" });
  });

  it("gives the fewest and most items of a list", () => {
    expect(hints(z.array(z.string()).min(1).max(5))).toEqual({ minItems: 1, maxItems: 5 });
  });
});
