import { personChoice, type StartFormContext } from "parley/workflows";
import { z } from "zod";
import { currencyCode } from "./currency";

/** The most a claim can be, in cents: what the claims table's integer column holds. */
const MAX_AMOUNT_CENTS = 2_147_483_647;

/** What is wrong with a typed amount, in the one sentence that says what to type; nothing when it is a claim's amount. */
function amountProblem(amount: string): string | undefined {
  if (amount === "") return undefined; // said by `.min(1, …)`
  if (/^-\s*\d/.test(amount)) return "The amount must be more than zero.";
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(amount)) return "Write the amount as a number with up to two decimals, like 412.80.";
  const cents = Math.round(Number(amount) * 100);
  if (cents <= 0) return "The amount must be more than zero.";
  // Kept as whole cents in an integer column.
  if (cents > MAX_AMOUNT_CENTS) return "Claims are up to 21,474,836.47; split a larger claim in two.";
  return undefined;
}

/**
 * What an operator types to file a claim for review: the expense review's start input. Each field is
 * one question of the generated start form; the schema judges it on the server, whatever the browser did,
 * and says in its own words what a field left empty needs (`z.string({ error })`).
 */
export function claimInput({ people }: StartFormContext) {
  return z
    .object({
      title: z.string({ error: "Give the claim a title." }).trim().min(1, "Give the claim a title.").max(200, "Keep the title under 200 characters.").describe("Title"),
      merchant: z.string({ error: "Say who was paid." }).trim().min(1, "Say who was paid.").max(200, "Keep the merchant under 200 characters.").describe("Merchant"),
      amount: z
        .string({ error: "Enter the amount, like 412.80." })
        .trim()
        .min(1, "Enter the amount, like 412.80.")
        // One refusal, the one that says what to do: a negative amount is not a format mistake.
        .superRefine((amount, context) => {
          const problem = amountProblem(amount);
          if (problem) context.addIssue({ code: "custom", message: problem });
        })
        .transform((amount) => Math.round(Number(amount) * 100))
        .meta({ description: "Amount", multiline: false }), // a number typed on one line, checked by the refinement above
      currency: currencyCode("USD").describe("Currency"),
      incurredOn: z.iso.date({ error: "Pick the date of the charge." }).describe("Date of the charge"),
      assigneeId: personChoice(people, "Who answers the Auditor's questions?", "Choose who answers the Auditor's questions."),
      description: z.string().trim().max(2000, "Keep the description under 2,000 characters.").optional().describe("Description"),
    })
    .meta({ title: "File a claim for review" });
}

export type ClaimInput = z.output<ReturnType<typeof claimInput>>;
