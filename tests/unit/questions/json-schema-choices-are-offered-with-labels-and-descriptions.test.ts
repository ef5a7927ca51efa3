import { describe, expect, it } from "vitest";

import { validateAnswer, validateFormAnswer } from "@/lib/questions/validate-answer";

import { objectOf, questionOf, zodFrom } from "./json-schema";

describe("enum, const and oneOf of consts are offered as choices, in order, with their labels and descriptions", () => {
  it("offers an enum's values in the schema's order, labelled by their words", () => {
    expect(questionOf({ type: "string", enum: ["bank_transfer", "card", "EUR"] }).options).toEqual([
      { value: "bank_transfer", label: "bank transfer" },
      { value: "card", label: "card" },
      { value: "EUR", label: "EUR" },
    ]);
  });

  it("labels a oneOf choice by its title and describes it by its description", () => {
    const field = questionOf({
      oneOf: [
        { const: "bank", title: "Bank transfer", description: "Paid within 3 days" },
        { const: "payroll", description: "With your next salary" },
      ],
    });
    expect(field).toMatchObject({ kind: "enum" });
    expect(field.options).toEqual([
      { value: "bank", label: "Bank transfer", description: "Paid within 3 days" },
      { value: "payroll", label: "payroll", description: "With your next salary" },
    ]);
  });

  it("reads anyOf of consts, as zod writes a union of literals, the same as oneOf", () => {
    expect(questionOf({ anyOf: [{ type: "string", const: "bank", title: "Bank transfer" }, { type: "string", const: "payroll" }] }).options).toEqual([
      { value: "bank", label: "Bank transfer" },
      { value: "payroll", label: "payroll" },
    ]);
  });

  it("offers numbers as numbers and true/false as booleans", () => {
    const numbers = questionOf({ type: "integer", enum: [1, 2, 5] }).options?.map((option) => option.value);
    const booleans = questionOf({ enum: [true, false] }).options?.map((option) => option.value);
    expect([numbers, booleans]).toEqual([
      [1, 2, 5],
      [true, false],
    ]);
  });

  it("offers a const as the one choice, without taking the question as its description", () => {
    expect(questionOf({ const: "yes", description: "Do you confirm?" })).toMatchObject({ question: "Do you confirm?", options: [{ value: "yes", label: "yes" }] });
  });

  it("makes the choices nullable when they include null", () => {
    const field = questionOf({ type: ["string", "null"], enum: ["a", "b", null] });
    expect([field.nullable, field.options?.map((option) => option.value)]).toEqual([true, ["a", "b"]]);
  });

  it("offers a value listed twice once", () => {
    expect(questionOf({ enum: ["a", "b", "a"] }).options?.map((option) => option.value)).toEqual(["a", "b"]);
  });

  it("offers the choices of a list's items as a multiple choice", () => {
    const field = questionOf({ type: "array", items: { oneOf: [{ const: "a", title: "Alpha" }, { const: "b" }] } });
    expect(field).toMatchObject({ kind: "multi-choice", options: [{ value: "a", label: "Alpha" }, { value: "b", label: "b" }] });
  });

  it("takes a choice by its number or its label, and returns its value", async () => {
    const schema = zodFrom(objectOf({ method: { oneOf: [{ const: "bank", title: "Bank transfer" }, { const: "payroll" }] }, size: { enum: [1, 2, 3] } }));
    const result = await validateFormAnswer(schema, { method: "bank transfer", size: "2" });
    expect(result).toMatchObject({ ok: true, value: { method: "bank", size: 2 } });
  });

  it("refuses a value that is not offered, naming the choices by their labels", async () => {
    const schema = zodFrom(objectOf({ method: { oneOf: [{ const: "bank", title: "Bank transfer" }, { const: "payroll" }] } }));
    const result = await validateAnswer(schema, { method: "cash" });
    expect(result).toMatchObject({ ok: false, fieldErrors: { method: ["Choose one of: Bank transfer, payroll"] } });
  });

  it("refuses a const's other values, naming the one it takes", async () => {
    const result = await validateAnswer(zodFrom(objectOf({ confirm: { const: true } })), { confirm: false });
    expect(result).toMatchObject({ ok: false, fieldErrors: { confirm: ["Must be true"] } });
  });
});
