import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";
import { validateFormAnswer, validateTextAnswers } from "@/lib/questions/validate-answer";

import { fieldOf } from "./field";

const schema = z.object({ currency: z.string().length(3).default("EUR"), urgent: z.boolean().default(true) });

describe("a dash takes the default, and so does a cleared field", () => {
  it("reads - as missing on a defaulted field, so the schema applies its default", () => {
    expect(parseTextAnswer(fieldOf(z.string().default("EUR")), " - ")).toEqual({ ok: true, value: undefined });
  });

  it("gives the default as the value when - is typed", async () => {
    expect(await validateTextAnswers(schema, { currency: "-", urgent: "-" })).toMatchObject({ ok: true, value: { currency: "EUR", urgent: true } });
  });

  it("gives the default when a defaulted field is left empty", async () => {
    expect(await validateTextAnswers(schema, { currency: "", urgent: "" })).toMatchObject({ ok: true, value: { currency: "EUR" } });
  });

  it("gives the default for a cleared browser input (which posts an empty string)", async () => {
    expect(await validateFormAnswer(schema, { currency: "", urgent: "on" })).toMatchObject({ ok: true, value: { currency: "EUR", urgent: true } });
  });

  it("keeps - as ordinary text on a text field with no default", () => {
    expect(parseTextAnswer(fieldOf(z.string()), "-")).toEqual({ ok: true, value: "-" });
  });

  it("refuses - in plain words on a number field with no default", () => {
    expect(parseTextAnswer(fieldOf(z.number()), "-")).toEqual({ ok: false, message: "There is no default for this question; please type an answer." });
  });
});
