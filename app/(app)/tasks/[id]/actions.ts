"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getAppRuntime } from "@/lib/app-runtime";
import { getDb } from "@/lib/database";
import { AppError } from "@/lib/errors";
import { definitionFailureOfRun } from "@/lib/run-history";
import { definitionFailureMessage } from "@/lib/runtime/definition-errors";
import { loadRunPage } from "@/lib/runs";
import { type ActionResult, defineFormAction } from "@/lib/server/define-action";

const retryRun = defineFormAction({
  roles: ["operator"],
  input: z.object({ taskId: z.uuid() }),
  async handler({ taskId }, user) {
    const db = await getDb();
    const { runtime, worker, registry } = await getAppRuntime();
    const page = await loadRunPage(db, registry, taskId);
    if (!page) throw new AppError("not_found", "There is no such run.");
    const { run } = page;
    if (run.status === "failed") {
      // A run stopped because its workflow is wrong is never requeued: it would fail the same way.
      const stopped = await definitionFailureOfRun(db, taskId);
      if (stopped) throw new AppError("definition_error", definitionFailureMessage(run.workflow, stopped.cause));
    }
    if (run.status !== "retryable") {
      throw new AppError(
        "conflict",
        run.status === "failed"
          ? `This run ended in its ${run.state} state by the workflow's own decision, not on a model error, so there is nothing to retry.`
          : `Only a run that failed on a model error can be retried; this one is ${run.status}.`,
      );
    }
    if (!page.registered) throw new AppError("conflict", `This run's workflow, ${run.workflow}, is not registered in parley.config.ts, so nothing here can run it.`);
    // The requeue is one conditional update: a second retry (or another operator's) finds nothing to requeue.
    const requeued = await runtime.retry({ name: run.workflow }, taskId, { by: user.id });
    if (requeued === 0) throw new AppError("conflict", "Someone else retried this run a moment ago.");
    worker.wake();
    revalidatePath(`/tasks/${taskId}`);
    return { requeued };
  },
});

/** What the retry form shows after a press. */
export type RetryRunState = ActionResult<{ requeued: number }>;

/** Operators only: queues a run that failed on a model error again, and wakes the worker. */
export async function retryRunAction(_previous: RetryRunState | null, formData: FormData): Promise<RetryRunState> {
  return retryRun(formData);
}

/** The confirmation a cancel (or a run again) must carry: the form's "Yes, …" step sends it. */
const confirmed = z.literal("yes", { error: "Confirm first: press “Yes, cancel this run”." });

const cancelRun = defineFormAction({
  roles: ["operator", "admin"],
  input: z.object({ taskId: z.uuid(), confirm: confirmed }),
  async handler({ taskId }, user) {
    const db = await getDb();
    const { runtime, registry } = await getAppRuntime();
    const page = await loadRunPage(db, registry, taskId);
    if (!page) throw new AppError("not_found", "There is no such run.");
    if (!page.registered) throw new AppError("conflict", `This run's workflow, ${page.run.workflow}, is not registered in parley.config.ts, so it cannot be cancelled here.`);
    // One conditional update decides: a run that ended meanwhile, or another operator's cancel first, is a conflict in plain words.
    const cancelled = await runtime.cancelRun({ name: page.run.workflow }, taskId, { by: user.id });
    revalidatePath(`/tasks/${taskId}`);
    revalidatePath("/runs");
    return { withdrawn: cancelled.withdrawn.length };
  },
});

/** What the cancel form shows after a press. */
export type CancelRunState = ActionResult<{ withdrawn: number }>;

/**
 * Operators and admins: cancels a run that has not ended, once confirmed. Its open questions are
 * withdrawn (closed with nothing, reason `cancelled`) and nothing of it runs again.
 */
export async function cancelRunAction(_previous: CancelRunState | null, formData: FormData): Promise<CancelRunState> {
  return cancelRun(formData);
}
