import { describe, expect, it } from "vitest";
import { z } from "zod";

import type { QuestionSpec } from "@/lib/questions/question-spec";
import { specFromSchema } from "@/lib/questions/spec-from-schema";
import { validateFormAnswer } from "@/lib/questions/validate-answer";

import { zodFrom } from "./json-schema";

/**
 * The spec without browser pattern hints: a JSON Schema pattern is Unicode and unanchored, so it is
 * never offered to the browser (which anchors it) — the one thing the round trip is meant to lose.
 */
function withoutPatternHints(spec: QuestionSpec): QuestionSpec {
  return {
    ...spec,
    fields: spec.fields.map((field) => {
      const hints = { ...field.hints };
      delete hints.pattern;
      return { ...field, hints };
    }),
  };
}

const Claim = z
  .object({
    name: z.string().min(2).max(40).describe("Your name"),
    email: z.email().describe("Where should we write?"),
    website: z.url().optional(),
    day: z.iso.date().describe("When did you spend it?"),
    at: z.iso.datetime().nullable(),
    guests: z.int().min(1).max(10),
    anyWhole: z.int(),
    amount: z.number().gt(0).lt(1000).multipleOf(0.01),
    urgent: z.boolean().default(false),
    size: z.enum(["small", "large"]).optional(),
    method: z.union([z.literal("bank_transfer").meta({ title: "Bank transfer", description: "Within 3 days" }), z.literal("payroll")]),
    attendees: z.array(z.string()).min(1).max(3),
    categories: z.array(z.enum(["travel", "meals"])),
    nickname: z.string().nullable(),
    tier: z.enum(["gold", "silver"]).nullable(),
    currency: z.string().regex(/^[A-Z]{3}$/).default("EUR"),
    address: z.object({ city: z.string(), zip: z.string().optional() }).describe("Where do you live?"),
    invoice: z.object({ number: z.string() }).optional(),
  })
  .meta({ title: "Expense claim", description: "Tell us what you spent" });

const Reimbursement = z
  .object({
    method: z
      .union([z.literal("bank_transfer").meta({ description: "To the account on file" }), z.literal("payroll").meta({ description: "With your next salary" }), z.literal("card_refund")])
      .describe("How should we pay you back?"),
    urgent: z.boolean().describe("Is it urgent?"),
    currency: z.string().regex(/^[A-Z]{3}$/).default("EUR"),
    attendees: z.array(z.string()).min(1).describe("Who attended?"),
  })
  .meta({ title: "Reimbursement" });

describe("a zod schema written out with z.toJSONSchema and read back asks the same questions", () => {
  for (const [name, schema] of [
    ["an expense claim using every supported shape", Claim],
    ["the Reimbursement questionnaire", Reimbursement],
  ] as const) {
    it(`asks the same questions for ${name}`, () => {
      const back = zodFrom(z.toJSONSchema(schema));
      expect(withoutPatternHints(specFromSchema(back))).toEqual(withoutPatternHints(specFromSchema(schema)));
    });
  }

  it("judges an answer as the original does", async () => {
    const back = zodFrom(z.toJSONSchema(Reimbursement));
    for (const form of [
      { method: "2", urgent: "on", currency: "", attendees: "Ana, Ben" },
      { method: "2", currency: "eur", attendees: "" },
    ]) {
      const [original, read] = [await validateFormAnswer(Reimbursement, form), await validateFormAnswer(back, form)];
      expect([read.ok, read.ok ? read.value : Object.keys(read.fieldErrors)]).toEqual([original.ok, original.ok ? original.value : Object.keys(original.fieldErrors)]);
    }
  });
});
