import { z } from "zod";

/** What an operator types to file a claim for review; judged on the server whatever the browser did. */
export const claimInput = z.object({
  title: z.string().trim().min(1, "Give the claim a title.").max(200, "Keep the title under 200 characters."),
  amount: z
    .string()
    .trim()
    .min(1, "Enter the amount, like 412.80.")
    .regex(/^\d{1,9}(\.\d{1,2})?$/, "Write the amount as a number with up to two decimals, like 412.80.")
    .transform((amount) => Math.round(Number(amount) * 100))
    .refine((cents) => cents > 0, "The amount must be more than zero."),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, "Use a three-letter currency code, like USD or EUR."),
  merchant: z.string().trim().min(1, "Say who was paid.").max(200, "Keep the merchant under 200 characters."),
  incurredOn: z.iso.date("Pick the date of the charge."),
  description: z.string().trim().max(2000, "Keep the description under 2,000 characters."),
  assigneeId: z.uuid("Choose who answers the Auditor's questions."),
});

export type ClaimInput = z.output<typeof claimInput>;
