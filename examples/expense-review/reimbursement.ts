import { z } from "zod";
import { currencyCode } from "./currency";

/** The questionnaire the claim's filer answers once the Auditor approves: how to be paid back. */
export const Reimbursement = z
  .object({
    method: z
      .union([
        z.literal("bank_transfer").meta({ title: "Bank transfer", description: "To the account on file" }),
        z.literal("payroll").meta({ title: "Payroll", description: "With your next salary" }),
        z.literal("card_refund").meta({ title: "Card refund", description: "Back to the card you paid with" }),
      ])
      .describe("How should we pay you back?"),
    urgent: z.boolean().describe("Is it urgent?"),
    currency: currencyCode("EUR").describe("Which currency should we pay in?"),
    attendees: z.array(z.string()).min(1, "Name at least one attendee.").describe("Who attended?"),
  })
  .meta({ title: "Reimbursement" });

export type ReimbursementAnswer = z.output<typeof Reimbursement>;

/** How long the filer has to say how to be paid back. */
export const REIMBURSE_WITHIN = { days: 3 } as const;
