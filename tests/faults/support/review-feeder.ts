import type { Database } from "@/db/client";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { startReview } from "@/examples/expense-review/start-review";
import { createRuntime } from "@/lib/runtime";
import { countRows } from "./review-invariants";

/**
 * Files reviews of a claim the Auditor will ask about (each start is one transaction), keeping
 * `unfinished` of them open, until stopped: the server under test runs them. A start the database
 * refuses (it is restarting) is tried again.
 */
export function startReviewFeeder(options: { database: Database; assigneeId: string; createdBy: string; unfinished: number }): {
  filed(): number;
  stop(): Promise<void>;
} {
  const { database } = options;
  // Used only to start runs; it runs no job itself.
  const filer = createRuntime({ db: database.db, workflows: [ReviewClaim] });
  let filed = 0;
  let feeding = true;
  const loop = (async () => {
    while (feeding) {
      try {
        const open = await countRows(database.postgres!, "select 1 from review_tasks where status <> 'completed'");
        for (let index = open; index < options.unfinished && feeding; index++) {
          await startReview(database.db, filer, {
            claim: { title: `Dinner ${filed + 1}`, amountCents: 48_250, currency: "EUR", merchant: `Cervejaria ${filed + 1}`, incurredOn: "2026-11-03", description: "Dinner." },
            assigneeId: options.assigneeId,
            createdBy: options.createdBy,
          });
          filed++;
        }
      } catch {
        // The database is restarting: try again in a moment.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    filed: () => filed,
    async stop() {
      feeding = false;
      await loop;
    },
  };
}
