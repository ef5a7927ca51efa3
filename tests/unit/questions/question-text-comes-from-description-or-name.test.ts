import { describe, expect, it } from "vitest";
import { z } from "zod";

import { humanizeName } from "@/lib/questions/humanize-name";
import { specFromSchema } from "@/lib/questions/spec-from-schema";

function question(schema: z.ZodObject, path: string): string | undefined {
  return specFromSchema(schema).fields.find((field) => field.path === path)?.question;
}

describe("the question put to a person is the field's description, else a readable form of its name", () => {
  it("asks a field's .describe() text", () => {
    expect(question(z.object({ amount: z.number().describe("How much did you spend?") }), "amount")).toBe("How much did you spend?");
  });

  it("asks a field's .meta({ description }) text", () => {
    expect(question(z.object({ amount: z.number().meta({ description: "How much?" }) }), "amount")).toBe("How much?");
  });

  it("keeps a description given inside .optional() or .default()", () => {
    const schema = z.object({ a: z.string().describe("Inner").optional(), b: z.string().describe("Inner b").default("x") });
    expect([question(schema, "a"), question(schema, "b")]).toEqual(["Inner", "Inner b"]);
  });

  it("prefers the outermost description when both wrapper and inner field have one", () => {
    expect(question(z.object({ a: z.string().describe("Inner").optional().describe("Outer") }), "a")).toBe("Outer");
  });

  it("turns a camelCase name into words when there is no description", () => {
    expect(question(z.object({ merchantName: z.string() }), "merchantName")).toBe("Merchant name");
  });

  it("turns snake_case and kebab-case names into words and keeps acronyms", () => {
    expect([humanizeName("card_refund"), humanizeName("vat-number"), humanizeName("VATNumber"), humanizeName("totalEUR")]).toEqual([
      "Card refund",
      "Vat number",
      "VAT number",
      "Total EUR",
    ]);
  });

  it("takes the questionnaire title and description from the schema's meta, or from options", () => {
    const schema = z.object({ a: z.string() }).meta({ title: "Reimbursement", description: "How to pay you back" });
    expect(specFromSchema(schema)).toMatchObject({ title: "Reimbursement", description: "How to pay you back" });
    expect(specFromSchema(schema, { title: "Other" }).title).toBe("Other");
  });
});
