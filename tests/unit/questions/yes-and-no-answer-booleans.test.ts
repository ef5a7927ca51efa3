import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";

import { fieldOf } from "./field";

const field = fieldOf(z.boolean());

describe("booleans are answered yes or no", () => {
  for (const text of ["y", "Y", "yes", "YES", "Yes", "true", "TRUE"]) {
    it(`reads ${text} as true`, () => {
      expect(parseTextAnswer(field, text)).toEqual({ ok: true, value: true });
    });
  }
  for (const text of ["n", "N", "no", "No", "false", "False"]) {
    it(`reads ${text} as false`, () => {
      expect(parseTextAnswer(field, text)).toEqual({ ok: true, value: false });
    });
  }

  it("refuses anything else with a plain message", () => {
    expect(parseTextAnswer(field, "maybe")).toEqual({ ok: false, message: '"maybe" is not yes or no. Type y or n.' });
  });
});
