import { describe, expect, it } from "vitest";
import { z } from "zod";

import { specFromSchema } from "@/lib/questions/spec-from-schema";
import { validateFormAnswer, validateTextAnswers } from "@/lib/questions/validate-answer";

/** The shape issue 4 asks the claim's filer for, end to end through the question spec. */
const Reimbursement = z
  .object({
    method: z
      .union([
        z.literal("bank_transfer").meta({ description: "To the account on file" }),
        z.literal("payroll").meta({ description: "With your next salary" }),
        z.literal("card_refund"),
      ])
      .describe("How should we pay you back?"),
    urgent: z.boolean().describe("Is it urgent?"),
    currency: z.string().regex(/^[A-Z]{3}$/, "Use a three-letter currency code, like EUR.").default("EUR"),
    attendees: z.array(z.string()).min(1, "Name at least one attendee.").describe("Who attended?"),
  })
  .meta({ title: "Reimbursement" });

describe("the Reimbursement questionnaire is asked field by field and judged by its schema", () => {
  it("asks four questions with their kinds, options, default and hints", () => {
    expect(specFromSchema(Reimbursement)).toMatchObject({
      title: "Reimbursement",
      fields: [
        { path: "method", kind: "enum", question: "How should we pay you back?", options: [{ value: "bank_transfer", description: "To the account on file" }, { value: "payroll" }, { value: "card_refund" }] },
        { path: "urgent", kind: "boolean", question: "Is it urgent?" },
        { path: "currency", kind: "text", question: "Currency", hasDefault: true, default: "EUR", hints: { pattern: "^[A-Z]{3}$" } },
        { path: "attendees", kind: "list", question: "Who attended?", hints: { minItems: 1 } },
      ],
    });
  });

  it("builds the typed value from terminal answers", async () => {
    const result = await validateTextAnswers(Reimbursement, { method: "2", urgent: "y", currency: "-", attendees: "Ana, Ben" });
    expect(result).toMatchObject({ ok: true, value: { method: "payroll", urgent: true, currency: "EUR", attendees: ["Ana", "Ben"] } });
  });

  it("builds the same typed value from the browser form", async () => {
    const form = new URLSearchParams([["method", "payroll"], ["urgent", "on"], ["currency", ""], ["attendees", "Ana, Ben"]]);
    const result = await validateFormAnswer(Reimbursement, form);
    expect(result).toMatchObject({ ok: true, value: { method: "payroll", urgent: true, currency: "EUR", attendees: ["Ana", "Ben"] } });
  });

  it("refuses a bad currency and no attendees in the schema's own words, on their fields", async () => {
    const result = await validateTextAnswers(Reimbursement, { method: "payroll", urgent: "n", currency: "euro", attendees: "" });
    expect(result).toMatchObject({
      ok: false,
      fieldErrors: { currency: ["Use a three-letter currency code, like EUR."], attendees: ["Name at least one attendee."] },
    });
  });

  it("refuses an empty list of attendees with the custom message when a form sends commas only", async () => {
    const result = await validateFormAnswer(Reimbursement, { method: "payroll", attendees: " , " });
    expect(result.ok ? [] : result.fieldErrors.attendees).toEqual(["Name at least one attendee."]);
  });
});
