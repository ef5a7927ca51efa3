import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";

import { fieldOf } from "./field";

describe("a refusal quotes only the start of a long text", () => {
  it("shortens a pasted page to its first 40 characters in the refusal of a number", () => {
    const pasted = "x".repeat(100_000);
    const parsed = parseTextAnswer(fieldOf(z.number()), pasted);
    expect(parsed).toEqual({ ok: false, message: `"${"x".repeat(40)}…" is not a number. Type digits, like 12 or 3.5.` });
  });

  it("quotes a short text whole", () => {
    expect(parseTextAnswer(fieldOf(z.boolean()), "maybe")).toEqual({ ok: false, message: '"maybe" is not yes or no. Type y or n.' });
  });
});
