import { describe, expect, it } from "vitest";
import { z } from "zod";

import { parseTextAnswer } from "@/lib/questions/parse-text-answer";

import { fieldOf } from "./field";

const method = fieldOf(z.enum(["bank_transfer", "payroll", "card_refund"]));

describe("an option is chosen by its number or its word, in any case", () => {
  it("takes an option by its 1-based number", () => {
    expect(parseTextAnswer(method, "2")).toEqual({ ok: true, value: "payroll" });
  });

  it("takes an option by its value", () => {
    expect(parseTextAnswer(method, "card_refund")).toEqual({ ok: true, value: "card_refund" });
  });

  it("takes an option by its value in any case", () => {
    expect(parseTextAnswer(method, "PayRoll")).toEqual({ ok: true, value: "payroll" });
  });

  it("takes an option by its label", () => {
    expect(parseTextAnswer(method, "Bank Transfer")).toEqual({ ok: true, value: "bank_transfer" });
  });

  it("refuses a number out of range, listing the numbered choices", () => {
    expect(parseTextAnswer(method, "4")).toEqual({
      ok: false,
      message: '"4" is not one of the choices. Type its number or its word: 1) bank transfer, 2) payroll, 3) card refund.',
    });
  });

  it("refuses 0, since options are numbered from 1", () => {
    expect(parseTextAnswer(method, "0").ok).toBe(false);
  });

  it("prefers an option's exact value over a position", () => {
    expect(parseTextAnswer(fieldOf(z.literal([3, 1, 2])), "1")).toEqual({ ok: true, value: 1 });
  });

  it("takes a numeric option by position when no value matches", () => {
    expect(parseTextAnswer(fieldOf(z.literal([10, 20, 30])), "2")).toEqual({ ok: true, value: 20 });
  });

  it("takes an option named none on a nullable enum rather than null", () => {
    expect(parseTextAnswer(fieldOf(z.enum(["none", "some"]).nullable()), "None")).toEqual({ ok: true, value: "none" });
  });
});
