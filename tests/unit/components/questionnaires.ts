import { z } from "zod";

import { specFromSchema } from "@/lib/questions";

/** The Reimbursement questionnaire of issue 4: an enum with descriptions, a boolean, a default, a list. */
export const Reimbursement = z
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

/** One field of every kind, a nested object two deep, optional and nullable ones. */
export const EveryKind = z.object({
  note: z.string().max(40).describe("A short note"),
  amount: z.number().min(0).max(5000).describe("How much?"),
  nights: z.int().min(1).max(14).optional().describe("How many nights?"),
  tags: z.array(z.enum(["travel", "food", "hotel"])).describe("Which apply?"),
  receipt: z.boolean().describe("Do you have a receipt?"),
  spentOn: z.iso.date().describe("When was it spent?"),
  comment: z.string().nullable().describe("Anything else?"),
  address: z
    .object({
      city: z.string().describe("City"),
      street: z.object({ name: z.string().describe("Street name") }).describe("Street"),
    })
    .describe("Where"),
});

/** An enum with this many options. */
export function enumWith(count: number) {
  const values = Array.from({ length: count }, (_, index) => `option${index + 1}`) as [string, ...string[]];
  return specFromSchema(z.object({ pick: z.enum(values).describe("Pick one") }));
}
