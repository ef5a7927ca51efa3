import type { Db } from "@/db/client";
import { membersOf } from "@/db/queries/group-routing";
import { cancelRunInTransaction, type RunCancel } from "@/db/queries/run-cancels";
import type { RunStatus } from "@/db/schema";
import { AppError } from "@/lib/errors";
import type { Commit, RuntimeChange } from "./announce";
import type { AnyWorkflow } from "./types";

/** A run an operator cancelled: how many of its questions were withdrawn, and what it was before. */
export interface CancelledRun {
  status: "cancelled";
  from: RunStatus;
  state: string;
  /** The questions still open when it was cancelled, now closed with nothing (`cancelled`). */
  withdrawn: string[];
}

/** Stopping a run that has not ended. */
export interface RunCanceller {
  /**
   * Cancels a run that is running, waiting or retryable, in one transaction: the run and its task read
   * `cancelled`, its open slots close and every question still open on them ends with nothing, reason
   * `cancelled` (their people's inboxes and an API ask's caller are told), its queued work is dropped
   * and a job running right now cannot move it again; a `cancelled` event records `by`. Exactly once:
   * a second cancel (at the same moment, too) is a `conflict`, as is a run that has ended (completed,
   * failed — its failure is what it ended with — or cancelled); an unknown run is `not_found`.
   */
  cancelRun(workflow: { readonly name: string }, taskId: string, options: { by: string }): Promise<CancelledRun>;
}

/** Why a run cannot be cancelled, in plain words. */
function refusal(status: RunStatus | null): AppError {
  switch (status) {
    case null:
      return new AppError("not_found", "There is no such run.");
    case "cancelled":
      return new AppError("conflict", "This run was already cancelled.");
    case "completed":
      return new AppError("conflict", "This run has already completed, so there is nothing to cancel.");
    case "failed":
      return new AppError("conflict", "This run has already ended (it failed), so there is nothing to cancel.");
    default:
      return new AppError("conflict", `This run is ${status} and cannot be cancelled.`);
  }
}

/** {@link RunCanceller} over a runtime's commit, clock and workflows. */
export function createRunCanceller(deps: { commit: Commit; now: () => Date; workflowNamed: (name: string) => AnyWorkflow }): RunCanceller {
  return {
    async cancelRun(workflow, taskId, options) {
      const { tracks } = deps.workflowNamed(workflow.name);
      const at = deps.now();
      const result = await deps.commit<RunCancel>(async (tx) => {
        const cancel = await cancelRunInTransaction(tx, { workflow: workflow.name, taskId, tracks, by: options.by, at });
        if (!cancel.cancelled) return { value: cancel, changes: [] };
        const changes: RuntimeChange[] = [{ kind: "run-status", taskId, status: "cancelled", userIds: [] }];
        for (const question of cancel.withdrawn) {
          changes.push({ kind: "question-closed", taskId, questionId: question.questionId, ...(question.slotId ? { slotId: question.slotId } : {}), userIds: await partiesOf(tx, question) });
        }
        return { value: cancel, changes };
      });
      if (!result.cancelled) throw refusal(result.status);
      return { status: "cancelled", from: result.from, state: result.state, withdrawn: result.withdrawn.map((question) => question.questionId) };
    },
  };
}

/** Everyone a withdrawn question's wait was for, its groups' members as they are now. */
async function partiesOf(tx: Db, question: { assigneeId: string | null; candidateIds: string[]; candidateGroupIds: string[] }): Promise<string[]> {
  const members = question.candidateGroupIds.length > 0 ? await membersOf(tx, question.candidateGroupIds) : [];
  return [...new Set([...(question.assigneeId ? [question.assigneeId] : []), ...question.candidateIds, ...members])];
}
