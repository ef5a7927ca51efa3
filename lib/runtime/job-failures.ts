import { listRunEvents } from "@/db/queries/runtime-events";
import { type ClaimedJob, failJob, requeueFailedJobs } from "@/db/queries/runtime-jobs";
import { AppError } from "@/lib/errors";
import { definitionFailureIn, definitionFailureMessage, isDefinitionFailure } from "./definition-errors";
import type { RuntimeContext } from "./runtime-context";
import type { AnyWorkflow } from "./types";

/** What recording a job's failure, and retrying a run, need from the runtime. */
export type FailureContext = Pick<RuntimeContext, "db" | "now" | "commit" | "workerId">;

function codeOf(error: unknown): string | null {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Records that a job failed, in one statement: its run becomes `retryable` — or `failed` for good when
 * its workflow is wrong (a definition error fails the same way every time) — with a `failed` event
 * saying why. A job this worker no longer holds is left alone.
 */
export async function recordJobFailure(context: FailureContext, workflow: AnyWorkflow, job: ClaimedJob, error: unknown): Promise<void> {
  const at = context.now();
  const retryable = !isDefinitionFailure(error);
  await context.commit(
    async (tx) => {
      const failed = await failJob(tx, {
        jobId: job.id,
        workerId: context.workerId,
        instanceId: job.instanceId,
        taskId: job.taskId,
        tracks: workflow.tracks,
        error: describe(error),
        retryable,
        events: [
          {
            taskId: job.taskId,
            workflowInstanceId: job.instanceId,
            kind: "failed",
            data: { state: job.state, job: job.kind, cause: describe(error), code: codeOf(error), retryable },
            at,
          },
        ],
        at,
      });
      return { value: failed, changes: failed ? [{ kind: "run-status", taskId: job.taskId, status: retryable ? "retryable" : "failed", userIds: [] }] : [] };
    },
    { oneStatement: true },
  );
}

/**
 * Queues a retryable run's failed work again; returns how many jobs. A run that stopped because its
 * workflow is wrong is never requeued: that refuses with `definition_error`, saying what is wrong.
 */
export async function retryRun(context: Omit<FailureContext, "workerId">, workflow: AnyWorkflow, taskId: string, by: string | null): Promise<number> {
  const requeued = await context.commit(async (tx) => {
    const requeued = await requeueFailedJobs(tx, { workflow: workflow.name, taskId, tracks: workflow.tracks, by, at: context.now() });
    return { value: requeued, changes: requeued > 0 ? [{ kind: "run-status", taskId, status: "running", userIds: [] }] : [] };
  }, { oneStatement: true });
  if (requeued > 0) return requeued;
  // Nothing to requeue: say so plainly when the run stopped because its workflow is wrong.
  const stopped = definitionFailureIn(await listRunEvents(context.db, taskId));
  if (stopped) throw new AppError("definition_error", definitionFailureMessage(workflow.name, stopped.cause));
  return 0;
}
