import { getDatabase } from "@/db/client";
import { createAuditorModel } from "@/lib/example/auditor-script";
import { publishLiveEvent } from "@/lib/live-events";
import { ReviewClaim } from "@/lib/example/review-claim";
import { type ResolvedModel, resolveModel } from "@/lib/models/resolve-model";
import { createRuntime, type Runtime, startWorker, type Worker } from "@/lib/runtime";

/** The runtime this server process runs on, the model its agents use, and its worker loop. */
export interface AppRuntime {
  runtime: Runtime;
  /** Which model answers, with the label screens show (the scripted model says so). */
  model: ResolvedModel;
  worker: Worker;
}

const GLOBAL_KEY = Symbol.for("parley.app-runtime");
type GlobalWithRuntime = typeof globalThis & { [GLOBAL_KEY]?: Promise<AppRuntime> };

/**
 * The process's runtime, created on first use: the model is resolved from the environment once (a
 * half-done configuration throws here, at start-up, naming the variable to set), and one worker loop
 * takes jobs and sweeps SLA clocks. Several processes on one PostgreSQL share the work safely.
 */
export function getAppRuntime(): Promise<AppRuntime> {
  const store = globalThis as GlobalWithRuntime;
  store[GLOBAL_KEY] ??= (async () => {
    const model = resolveModel(process.env, { scripted: createAuditorModel });
    const { db } = await getDatabase();
    const runtime = createRuntime({
      db,
      workflows: [ReviewClaim],
      resolveModel: () => model.model,
      // Inside the transaction that made the change: screens hear of it only once it is committed.
      announce: (tx, change) =>
        publishLiveEvent(tx, {
          kind: change.kind,
          taskId: change.taskId,
          questionId: change.questionId,
          audience: { userIds: change.userIds, roles: ["operator", "admin"] },
        }),
    });
    const worker = startWorker(runtime, { onError: (error) => console.error("Parley worker:", error) });
    return { runtime, model, worker };
  })().catch((error: unknown) => {
    delete store[GLOBAL_KEY];
    throw error;
  });
  return store[GLOBAL_KEY];
}

/** Stops the worker loop (tests, and a clean shutdown). */
export async function stopAppRuntime(): Promise<void> {
  const store = globalThis as GlobalWithRuntime;
  const running = store[GLOBAL_KEY];
  delete store[GLOBAL_KEY];
  if (running) await (await running).worker.stop().catch(() => {});
}
