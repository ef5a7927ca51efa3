import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../client";
import { asks, jobs as jobsTable, type RunStatus, runEvents, slots as slotsTable, workflowInstances } from "../schema";
import { bareName, columnList } from "./read-aliases";
import { type TrackedTableColumns, updateTrackedStatus } from "./runtime-jobs";

/** The cancel's names: the run `w`, the run as it was `before` it moved, the events it writes, a withdrawn question's id `q`. */
const w = alias(workflowInstances, "w");
const before = alias(workflowInstances, "before");
const events = alias(runEvents, "events");
const q = alias(asks, "q");

/** The statuses a run can be cancelled from: it has not ended. A completed, failed or cancelled run has. */
export const CANCELLABLE_RUN_STATUSES = ["running", "waiting", "retryable"] as const satisfies readonly RunStatus[];

/** A question withdrawn by a cancel, with whom its wait was for (their inboxes are told). */
export interface WithdrawnQuestion {
  questionId: string;
  slotId: string | null;
  assigneeId: string | null;
  candidateIds: string[];
  candidateGroupIds: string[];
}

/** What {@link cancelRunInTransaction} did. */
export type RunCancel =
  | { cancelled: true; instanceId: string; from: RunStatus; state: string; withdrawn: WithdrawnQuestion[]; slots: number; jobs: number }
  /** Nothing changed: no such run, or it had ended (its status says how). */
  | { cancelled: false; status: RunStatus | null };

function uuids(value: string[] | string | null): string[] {
  return Array.isArray(value) ? value : (value ?? "").replace(/[{}]/g, "").split(",").filter(Boolean);
}

/**
 * Cancels a run, inside the caller's transaction: its statements take their locks in the order every
 * other writer of a run does (its jobs, then the run, then its slots, then its questions), so a cancel
 * racing a deposit, a job's transition or another cancel waits for it rather than deadlocking.
 *
 * - the run's queued and running jobs are locked, then finished (`done`, "the run was cancelled"):
 *   none is claimed again, and a job running right now finds its own next write refused (its
 *   transition needs the job still `running` and the run at the version it read, which this bumps);
 * - the run moves to `cancelled` only from a status that has not ended (one conditional UPDATE: of two
 *   cancels at once, the second finds it cancelled and changes nothing);
 * - its open slots are cancelled, and every question still open on them (or of the run without a
 *   slot yet) ends with nothing, reason `cancelled` — an answer that won its slot first keeps it;
 * - the tracked task reads `cancelled`; a `cancelled` run event names who, and a `nothing` event per
 *   withdrawn question.
 */
export async function cancelRunInTransaction(
  tx: Db,
  cancel: { workflow: string; taskId: string; tracks: TrackedTableColumns; by: string; at: Date },
): Promise<RunCancel> {
  const at = cancel.at.toISOString();
  const [found] = await queryRows<{ id: string }>(tx, sql`select ${workflowInstances.id} as id from ${workflowInstances} where ${workflowInstances.workflow} = ${cancel.workflow} and ${workflowInstances.taskId} = ${cancel.taskId}`);
  if (!found) return { cancelled: false, status: null };
  const instanceId = found.id;
  // Jobs first, as a job's own transition and failure lock them (then the run).
  await queryRows(tx, sql`select ${jobsTable.id} from ${jobsTable} where ${jobsTable.workflowInstanceId} = ${instanceId} and ${jobsTable.status} in ('queued', 'running') order by ${jobsTable.id} for update`);
  const [moved] = await queryRows<{ from_status: RunStatus; state: string }>(
    tx,
    sql`with ${before} as (
          select ${workflowInstances.id}, ${workflowInstances.status} from ${workflowInstances}
           where ${workflowInstances.id} = ${instanceId} and ${workflowInstances.status} in ('running', 'waiting', 'retryable')
           for no key update
        )
        update ${workflowInstances} ${w} set ${bareName(w.status)} = 'cancelled', ${bareName(w.version)} = ${w.version} + 1, ${bareName(w.updatedAt)} = ${at}::timestamptz
          from ${before} where ${w.id} = ${before.id}
        returning ${before.status} as from_status, ${w.state} as state`,
  );
  if (!moved) {
    const [now] = await queryRows<{ status: RunStatus }>(tx, sql`select ${workflowInstances.status} as status from ${workflowInstances} where ${workflowInstances.id} = ${instanceId}`);
    return { cancelled: false, status: now?.status ?? null };
  }
  const slots = await queryRows<{ id: string; assignee_id: string | null; candidate_ids: string[] | string; candidate_group_ids: string[] | string }>(
    tx,
    sql`update ${slotsTable} set ${bareName(slotsTable.status)} = 'cancelled', ${bareName(slotsTable.finishedAt)} = ${at}::timestamptz,
          ${bareName(slotsTable.waitMs)} = greatest(0, (extract(epoch from (${at}::timestamptz - ${slotsTable.openedAt})) * 1000)::bigint)
         where ${slotsTable.workflowInstanceId} = ${instanceId} and ${slotsTable.status} = 'open'
         returning ${slotsTable.id} as id, ${slotsTable.assigneeId} as assignee_id, ${slotsTable.candidateIds} as candidate_ids, ${slotsTable.candidateGroupIds} as candidate_group_ids`,
  );
  const slotIds = slots.map((slot) => slot.id);
  // Open, unanswered questions on those slots, and the run's own not yet handed to a slot. An agent's
  // ask whose slot took an answer (answered_by set, its result not yet written) keeps its answer.
  const withdrawn = await queryRows<{ id: string; slot_id: string | null }>(
    tx,
    sql`update ${asks} set ${bareName(asks.status)} = 'nothing', ${bareName(asks.reason)} = 'cancelled', ${bareName(asks.answeredAt)} = ${at}::timestamptz
         where ${asks.status} = 'open' and ${asks.reason} is null and ${asks.answeredBy} is null
           and (${asks.slotId} = any(${`{${slotIds.join(",")}}`}::uuid[]) or (${asks.workflowInstanceId} = ${instanceId} and ${asks.slotId} is null))
         returning ${asks.id} as id, ${asks.slotId} as slot_id`,
  );
  // After the slots: an answer that took a slot first (its deposit holds the slot until it commits,
  // and the cancel waits for it there) has queued its job by now, and that job is dropped too.
  const jobs = await queryRows<{ id: number }>(
    tx,
    sql`update ${jobsTable} set ${bareName(jobsTable.status)} = 'done', ${bareName(jobsTable.finishedAt)} = ${at}::timestamptz, ${bareName(jobsTable.lastError)} = 'the run was cancelled'
         where ${jobsTable.workflowInstanceId} = ${instanceId} and ${jobsTable.status} in ('queued', 'running')
         returning ${jobsTable.id} as id`,
  );
  await queryRows(tx, sql`with tracked as (${updateTrackedStatus(cancel.tracks, cancel.taskId, "cancelled", sql`true`)}) select 1`);
  await queryRows(
    tx,
    sql`insert into ${runEvents} (${columnList([runEvents.taskId, runEvents.workflowInstanceId, runEvents.kind, runEvents.data, runEvents.at])})
        select ${events.taskId}::uuid, ${events.workflowInstanceId}::uuid, ${events.kind}, ${events.data}, ${at}::timestamptz from (
          select 0 as n, ${cancel.taskId} as ${bareName(runEvents.taskId)}, ${instanceId} as ${bareName(runEvents.workflowInstanceId)}, 'cancelled' as ${bareName(runEvents.kind)},
                 jsonb_build_object('by', ${cancel.by}::text, 'from', ${moved.from_status}::text, 'state', ${moved.state}::text, 'withdrawn', ${withdrawn.length}::int) as ${bareName(runEvents.data)}
          union all
          select q.n, ${cancel.taskId}, ${instanceId}, 'nothing', jsonb_build_object('questionId', ${q.id}, 'reason', 'cancelled', 'by', ${cancel.by}::text)
            from unnest(${`{${withdrawn.map((question) => question.id).join(",")}}`}::uuid[]) with ordinality as ${q}(${bareName(asks.id)}, n)
        ) ${events} order by n`,
  );
  const bySlot = new Map(slots.map((slot) => [slot.id, slot]));
  return {
    cancelled: true,
    instanceId,
    from: moved.from_status,
    state: moved.state,
    withdrawn: withdrawn.map((question) => {
      const slot = question.slot_id ? bySlot.get(question.slot_id) : undefined;
      return {
        questionId: question.id,
        slotId: question.slot_id,
        assigneeId: slot?.assignee_id ?? null,
        candidateIds: slot ? uuids(slot.candidate_ids) : [],
        candidateGroupIds: slot ? uuids(slot.candidate_group_ids) : [],
      };
    }),
    slots: slots.length,
    jobs: jobs.length,
  };
}
