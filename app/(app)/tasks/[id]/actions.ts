"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { findReviewRun } from "@/db/queries/reviews";
import { getAppRuntime } from "@/lib/app-runtime";
import { ReviewClaim } from "@/lib/example/review-claim";
import { AppError } from "@/lib/errors";
import { type ActionResult, defineFormAction } from "@/lib/server/define-action";

const retryRun = defineFormAction({
  roles: ["operator"],
  input: z.object({ taskId: z.uuid() }),
  async handler({ taskId }) {
    const db = await getDb();
    const review = await findReviewRun(db, taskId);
    if (!review?.run) throw new AppError("not_found", "There is no such run.");
    if (review.run.status !== "retryable") {
      throw new AppError(
        "conflict",
        review.run.status === "failed"
          ? `This run ended in its ${review.run.state} state by the workflow's own decision, not on a model error, so there is nothing to retry.`
          : `Only a run that failed on a model error can be retried; this one is ${review.run.status}.`,
      );
    }
    const { runtime, worker } = await getAppRuntime();
    // The requeue is one conditional update: a second retry (or another operator's) finds nothing to requeue.
    const requeued = await runtime.retry(ReviewClaim, taskId);
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
