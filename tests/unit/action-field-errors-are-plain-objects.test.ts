import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrorsFrom, formDataToObject } from "@/lib/server/action-input";

describe("a server action's field errors", () => {
  it("are a plain object React can send to the browser, keyed by full path", () => {
    const result = z.object({ claim: z.object({ amount: z.number({ error: "Enter the amount." }) }) }).safeParse({ claim: {} });
    const errors = fieldErrorsFrom(result.error!);
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(errors).toEqual({ "claim.amount": ["Enter the amount."] });
  });

  it("can't be led to touch the prototype by a hostile path", () => {
    const errors = fieldErrorsFrom(new z.ZodError([{ code: "custom", path: ["__proto__"], message: "Refused.", input: 1 }]));
    expect(Object.hasOwn(errors, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("what a form action was sent", () => {
  it("keeps a browser's fields, with repeated names as lists", () => {
    const form = new FormData();
    form.append("title", "Dinner");
    form.append("tag", "a");
    form.append("tag", "b");
    form.append("$ACTION_ID_123", "");
    expect({ ...formDataToObject(form) }).toEqual({ title: "Dinner", tag: ["a", "b"] });
  });

  it("keeps only the strings of a hand-made call, and nothing of a non-object", () => {
    expect({ ...formDataToObject({ taskId: "t", nested: { x: 1 }, count: 3 }) }).toEqual({ taskId: "t" });
    expect({ ...formDataToObject(null) }).toEqual({});
    expect({ ...formDataToObject("taskId=t") }).toEqual({});
  });
});
