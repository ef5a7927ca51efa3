import { describe, expect, it } from "vitest";
import { isFormSubmission } from "@/lib/server/action-input";

describe("a form action's input", () => {
  it("is a form: FormData of text, or a plain object of strings and lists of strings", () => {
    const form = new FormData();
    form.append("title", "Dinner");
    form.append("$ACTION_ID_1", "");
    expect(isFormSubmission(form)).toBe(true);
    expect(isFormSubmission({ title: "Dinner", tags: ["a", "b"] })).toBe(true);
    expect(isFormSubmission(Object.assign(Object.create(null), { title: "Dinner" }))).toBe(true);
  });

  it("of any other type is refused, not read as an empty form", () => {
    const withFile = new FormData();
    withFile.append("receipt", new Blob(["x"]), "receipt.pdf");
    for (const value of [null, undefined, 42, "title=x", [{ title: "x" }], { title: 42 }, { title: { $gt: "" } }, { tags: ["a", 1] }, new Date(), withFile]) {
      expect(isFormSubmission(value), String(value)).toBe(false);
    }
  });

  it("with a field named like a prototype is refused", () => {
    expect(isFormSubmission(JSON.parse('{"__proto__": "x", "title": "a"}'))).toBe(false);
    expect(isFormSubmission({ constructor: "x" })).toBe(false);
    const form = new FormData();
    form.append("prototype", "x");
    expect(isFormSubmission(form)).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
