import type { SQL } from "drizzle-orm";
import { type Db, queryRows } from "../client";
import { asks, jobs, runEvents, type RunStatus, slots, workflowInstances } from "../schema";
import { RELAXED_COMMIT } from "./commit-durability";
import { jobTraceContext } from "./job-trace";
import { bareName, columnList, s } from "./read-aliases";
import { nothingReasonOfRun } from "./runs";
import { insertRunEventsSql, type NewRunEvent } from "./runtime-events";
import { insertEscalationsSql } from "./runtime-escalations";
import { type TrackedTableColumns, updateTrackedStatus } from "./runtime-jobs";
import { insertSlotsSql, type NewSlot } from "./runtime-slots";
import { schemaSql } from "./statement-parts";

/**
 * Entering a state, as one statement: what lib/runtime/transition-plan.ts plans, committed all or
 * nothing. Every table and column it names comes from the schema's table objects, so renaming one is
 * a compile error here.
 */

/** Entering a state: everything that commits together. */
export interface StateEntry {
  instanceId: string;
  taskId: string;
  tracks: TrackedTableColumns;
  to: string;
  status: RunStatus;
  /** The instance version this was computed from; the move commits only if it is still current. */
  fromVersion: number;
  /** The job that made this move; it is marked done in the same statement (and must still be ours). */
  job?: { id: number; workerId: string };
  /** Create the instance in the same statement (starting a workflow). */
  create?: { workflow: string };
  /** The fingerprint of the definition making the move (`workflow_definitions`), kept on the run it moves. */
  definitionFingerprint: string;
  /** Queue a job to run the state's `enter` body. */
  queueEnter: boolean;
  slots: readonly NewSlot[];
  /**
   * The workflow an agent's still-unanswered asks on the task are answered through: they are handed
   * to the first new slot (asks whose slot, of another instance, is still open keep it).
   */
  linkAsksTo?: { workflow: string; event: string };
  /** Refuse the move while any question on the task is unanswered (entering a success state). */
  onlyIfNothingWaits: boolean;
  /**
   * Commit without waiting for the disk: for moves nobody outside is told of yet (see
   * {@link RELAXED_COMMIT}). A run's start and its end are durable at once.
   */
  relaxed: boolean;
  events: readonly NewRunEvent[];
  at: Date;
}

/** A question closed with nothing (`cancelled`) because the state it waited in was left, with whom its wait was for. */
export interface CancelledQuestion {
  questionId: string;
  slotId: string;
  assigneeId: string | null;
  candidateIds: string[];
  candidateGroupIds: string[];
}

/** What {@link enterState} did. */
export type StateEntered =
  /**
   * `runnable`: whether any job was runnable as the move committed (the one it queued included).
   * `cancelledQuestions`: the questions left unanswered in the state it left, now closed with nothing.
   */
  | { entered: true; linkedAskIds: string[]; cancelledQuestions: CancelledQuestion[]; runnable: boolean }
  /** Not moved: `waiting` questions on the task held a success state back, else someone else got there first. */
  | { entered: false; waiting: number };

/** The statement's one row as drivers hand it back: jsonb may come as text. */
interface EnteredRow {
  moved: number;
  waiting: number;
  linked: string[] | string | null;
  cancelled: CancelledQuestion[] | string | null;
  runnable: boolean;
}

function fromJson<T>(value: T | string | null, empty: T): T {
  if (value === null) return empty;
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

/**
 * Moves an instance to a state in one statement (its own transaction, or the caller's): the job that
 * decided it is finished, the instance moves (only from the version it was read at) or is created,
 * slots left open are closed (and the questions still open on them end with nothing, reason
 * `cancelled`), the tracked task's status is set, the next job is queued, the new slots
 * open, waiting agent asks are handed to the first of them, and the events are appended — all, or
 * (when the job was lost, the instance moved on, or a success state would leave a question unanswered)
 * nothing.
 */
export async function enterState(db: Db, entry: StateEntry): Promise<StateEntered> {
  const at = entry.at.toISOString();
  const moved = schemaSql`exists (select 1 from moved)`;
  // The job must still be ours (locked against a takeover for the rest of the statement); it is
  // marked done only if the move is made, so a refused move leaves it running, for its failure to be recorded.
  const mine = entry.job
    ? schemaSql`select ${jobs.id} as id from ${jobs} where ${jobs.id} = ${entry.job.id} and ${jobs.status} = 'running' and ${jobs.lockedBy} = ${entry.job.workerId} for update`
    : schemaSql`select 1 as id`;
  const done = entry.job
    ? schemaSql`update ${jobs} set ${bareName(jobs.status)} = 'done', ${bareName(jobs.finishedAt)} = ${at}::timestamptz where ${jobs.id} = ${entry.job.id} and ${moved}`
    : schemaSql`select 1`;
  const waiting = entry.onlyIfNothingWaits
    ? schemaSql`select count(*)::int as waiting from ${asks} where ${asks.taskId} = ${entry.taskId} and ${asks.status} = 'open'`
    : schemaSql`select 0 as waiting`;
  const nothingWaits = entry.onlyIfNothingWaits ? schemaSql`and (select waiting from waiting) = 0` : schemaSql``;
  // A run that ends failed keeps why a question of it got no answer, if one is why (the runs list reads it by index).
  const nothingReason = entry.status === "failed" ? nothingReasonOfRun(entry.taskId) : schemaSql`null`;
  const wi = workflowInstances;
  // A new instance moves by being created; an existing one only from the version it was read at.
  const move = entry.create
    ? schemaSql`insert into ${wi} (${columnList([wi.id, wi.workflow, wi.taskId, wi.state, wi.status, wi.nothingReason, wi.definitionFingerprint, wi.version, wi.createdAt, wi.updatedAt])})
          select ${entry.instanceId}, ${entry.create.workflow}, ${entry.taskId}, ${entry.to}, ${entry.status}, ${nothingReason}, ${entry.definitionFingerprint}, 0, ${at}::timestamptz, ${at}::timestamptz
          where exists (select 1 from mine) ${nothingWaits}
          on conflict (${columnList([wi.workflow, wi.taskId])}) do nothing returning ${wi.id}`
    : schemaSql`update ${wi} set ${bareName(wi.state)} = ${entry.to}, ${bareName(wi.status)} = ${entry.status}, ${bareName(wi.nothingReason)} = ${nothingReason},
            ${bareName(wi.version)} = ${wi.version} + 1, ${bareName(wi.definitionFingerprint)} = ${entry.definitionFingerprint}, ${bareName(wi.lastError)} = ${null},
            ${bareName(wi.updatedAt)} = ${at}::timestamptz
          where ${wi.id} = ${entry.instanceId} and ${wi.version} = ${entry.fromVersion} and exists (select 1 from mine) ${nothingWaits}
          returning ${wi.id}`;
  const queue = entry.queueEnter
    ? schemaSql`insert into ${jobs} (${columnList([jobs.kind, jobs.workflowInstanceId, jobs.state, jobs.runAt, jobs.traceContext])})
          select 'enter', ${bareName(wi.id)}, ${entry.to}, ${at}::timestamptz, ${jobTraceContext()} from moved`
    : schemaSql`select 1`;
  const [first] = entry.slots;
  // The agent asks the first new slot takes over. Their current slot is read in the statement's
  // snapshot, where the slots closed above still look open: a slot of this very instance counts as closed.
  const linkable = schemaSql`${asks.taskId} = ${entry.taskId} and ${asks.conversationId} is not null and ${asks.status} = 'open' and ${asks.reason} is null
    and (${asks.slotId} is null or not exists (
      select 1 from ${slots} ${s} where ${s.id} = ${asks.slotId} and ${s.status} = 'open' and ${s.workflowInstanceId} <> ${entry.instanceId}))`;
  const link =
    first && entry.linkAsksTo
      ? schemaSql`update ${asks} set ${bareName(asks.slotId)} = ${first.id}, ${bareName(asks.workflowInstanceId)} = ${entry.instanceId},
              ${bareName(asks.workflow)} = ${entry.linkAsksTo.workflow}, ${bareName(asks.event)} = ${entry.linkAsksTo.event}
            where ${linkable} and ${moved}
            returning ${asks.id}`
      : schemaSql`select null::uuid as id where false`;
  // A question whose wait is cancelled here (its state is left unanswered) ends with nothing, reason
  // `cancelled`, in this statement: no job is queued for it, the flow has moved on. An agent's ask
  // handed to the new slot (above) is left to that slot instead.
  const cancel = schemaSql`update ${asks} set ${bareName(asks.status)} = 'nothing', ${bareName(asks.reason)} = 'cancelled', ${bareName(asks.answeredAt)} = ${at}::timestamptz
    where ${asks.slotId} in (select ${bareName(slots.id)} from closed) and ${asks.status} = 'open' and ${asks.reason} is null
      ${first && entry.linkAsksTo ? schemaSql`and ${asks.conversationId} is null` : schemaSql``}
    returning ${asks.id}, ${asks.taskId}, ${asks.workflowInstanceId}, ${asks.slotId}`;
  // The first slot records the agent of the earliest of them, for the SLA history.
  const firstSlotAgent =
    first && entry.linkAsksTo ? schemaSql`(select ${asks.agent} from ${asks} where ${linkable} order by ${asks.askedAt}, ${asks.id} limit 1)` : undefined;
  const [row] = await queryRows<EnteredRow>(
    db,
    schemaSql`with ${entry.relaxed ? schemaSql`relaxed as (${RELAXED_COMMIT}),` : schemaSql``}
        mine as (${mine}),
        waiting as (${waiting}),
        moved as (${move}),
        done as (${done}),
        closed as (
          update ${slots} set ${bareName(slots.status)} = 'cancelled', ${bareName(slots.finishedAt)} = ${at}::timestamptz
          where ${slots.workflowInstanceId} = ${entry.instanceId} and ${slots.status} = 'open' and ${moved}
          returning ${slots.id}, ${slots.assigneeId}, ${slots.candidateIds}, ${slots.candidateGroupIds}
        ),
        cancelled as (${cancel}),
        cancelled_events as (
          insert into ${runEvents} (${columnList([runEvents.taskId, runEvents.workflowInstanceId, runEvents.kind, runEvents.data, runEvents.at])})
          select ${bareName(asks.taskId)}, ${bareName(asks.workflowInstanceId)}, 'nothing', jsonb_build_object('questionId', ${bareName(asks.id)}, 'reason', 'cancelled', 'by', null), ${at}::timestamptz
          from cancelled
        ),
        tracked as (${updateTrackedStatus(entry.tracks, entry.taskId, entry.status, moved)}),
        queued as (${queue}),
        opened as (${insertSlotsSql(entry.slots, moved, firstSlotAgent)}),
        escalations as (${insertEscalationsSql(entry.slots, moved)}),
        linked as (${link}),
        events as (${insertRunEventsSql(entry.events, moved)})
        select (select count(*)::int from moved) as moved, (select waiting from waiting) as waiting,
          (select coalesce(jsonb_agg(${bareName(asks.id)}::text), '[]'::jsonb) from linked) as linked,
          (select coalesce(jsonb_agg(jsonb_build_object('questionId', cancelled.${bareName(asks.id)}, 'slotId', cancelled.${bareName(asks.slotId)},
              'assigneeId', closed.${bareName(slots.assigneeId)}, 'candidateIds', closed.${bareName(slots.candidateIds)},
              'candidateGroupIds', closed.${bareName(slots.candidateGroupIds)})), '[]'::jsonb)
             from cancelled join closed on closed.${bareName(slots.id)} = cancelled.${bareName(asks.slotId)}) as cancelled,
          ${runnableJobs(at)} as runnable
          ${entry.relaxed ? schemaSql`, (select relaxed from relaxed)` : schemaSql``}`,
  );
  if (!row || Number(row.moved) === 0) return { entered: false, waiting: Number(row?.waiting ?? 0) };
  return {
    entered: true,
    linkedAskIds: fromJson(row.linked, []),
    cancelledQuestions: fromJson(row.cancelled, []),
    runnable: entry.queueEnter || Boolean(row.runnable),
  };
}

/** Whether any job is runnable at `at`: queued and due, or held under a lease that ran out (two index probes). */
function runnableJobs(at: string): SQL {
  return schemaSql`(exists (select 1 from ${jobs} where ${jobs.status} = 'queued' and ${jobs.runAt} <= ${at}::timestamptz)
    or exists (select 1 from ${jobs} where ${jobs.status} = 'running' and ${jobs.lockedUntil} <= ${at}::timestamptz))`;
}
