/**
 * A worker process for the kill -9 test: runs jobs on the PostgreSQL database named on the command
 * line and, once the model has answered and before the turn is stored, says so and waits to be killed.
 */
import { openDatabase } from "@/db/client";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { createRuntime } from "@/lib/runtime";
import { clerkScript, FileTask } from "./fixture-workflow";

const url = process.argv[2];
if (!url) throw new Error("usage: crash-worker.ts <postgres url>");
const database = await openDatabase({ kind: "postgres", url });
const model = createScriptedModel({ respond: clerkScript });
const runtime = createRuntime({
  db: database.db,
  workflows: [FileTask],
  resolveModel: () => model,
  leaseMs: 60_000,
  checkpoint(point) {
    if (point !== "model-returned") return;
    process.stdout.write("model-returned\n");
    return new Promise<never>(() => {});
  },
});
await runtime.drain();
