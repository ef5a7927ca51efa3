import { eq, inArray } from "drizzle-orm";
import { type Db, defineApp, defineStart, type Runtime } from "parley/workflows";
import { z } from "zod";
import { createBuyerModel } from "./buyer-script";
import { PurchaseApproval } from "./purchase-approval";
import { type PurchaseRequest, purchaseRequests } from "./schema";

/** What an operator fills in to request a purchase. */
export const purchaseInput = z
  .object({
    item: z.string({ error: "Say what to buy." }).trim().min(1, "Say what to buy.").max(200, "Keep the item under 200 characters.").describe("What should we buy?"),
    amount: z
      .string({ error: "Enter the amount, like 640.00." })
      .trim()
      .regex(/^\d{1,7}(\.\d{1,2})?$/, "Write the amount as a number with up to two decimals, like 640.00.")
      .transform((amount) => Math.round(Number(amount) * 100))
      .describe("How much?"),
  })
  .meta({ title: "Request a purchase" });

/** Starts a purchase approval over a new request, in one transaction with it. */
export async function requestPurchase(db: Db, runtime: Runtime, request: { item: string; amountCents: number; requestedBy: string }): Promise<PurchaseRequest> {
  return db.transaction(async (tx) => {
    const [created] = await tx.insert(purchaseRequests).values(request).returning();
    await runtime.start(PurchaseApproval, created!, { db: tx as unknown as Db });
    return created!;
  });
}

/**
 * An app written against `parley/workflows` alone (lint holds this folder to it, as it holds
 * `examples/`): its own table and migrations, an agent that asks in a loop, a questionnaire to a
 * group with a one-day SLA and a reminder at half of it, a start form.
 */
export const purchaseApproval = defineApp({
  name: "purchase-approval",
  migrations: "tests/integration/sdk/purchase-approval/migrations",
  workflows: [
    {
      workflow: PurchaseApproval,
      label: "Purchase approval",
      async describe(db, taskIds) {
        const rows = await db.select().from(purchaseRequests).where(inArray(purchaseRequests.id, [...taskIds]));
        return new Map(rows.map((row) => [row.id, { title: `Buy ${row.item}`, summary: `${(row.amountCents / 100).toFixed(2)}`, startedBy: row.requestedBy }]));
      },
      async context(db, taskId) {
        const [row] = await db.select().from(purchaseRequests).where(eq(purchaseRequests.id, taskId));
        return row ? { title: row.item, facts: [{ label: "Why", value: row.justification ?? "" }] } : undefined;
      },
      start: defineStart({
        input: purchaseInput,
        submitLabel: "Request it",
        async run({ db, runtime, by }, input) {
          const request = await requestPurchase(db, runtime, { item: input.item, amountCents: input.amount, requestedBy: by });
          return { taskId: request.id };
        },
      }),
      scripted: { Buyer: createBuyerModel },
    },
  ],
});
