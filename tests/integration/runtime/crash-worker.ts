/**
 * A worker process for the kill -9 test: runs jobs on the PostgreSQL database named on the command
 * line and, once the model has answered and before the turn is stored, says so and waits to be killed.
 */
import { openDatabase } from "@/db/client";
import { createAuditorModel } from "@/examples/expense-review/auditor-script";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { createRuntime } from "@/lib/runtime";

const url = process.argv[2];
if (!url) throw new Error("usage: crash-worker.ts <postgres url>");
const database = await openDatabase({ kind: "postgres", url });
const model = createAuditorModel();
const runtime = createRuntime({
  db: database.db,
  workflows: [ReviewClaim],
  resolveModel: () => model,
  leaseMs: 60_000,
  checkpoint(point) {
    if (point !== "model-returned") return;
    process.stdout.write("model-returned\n");
    return new Promise<never>(() => {});
  },
});
await runtime.drain();
