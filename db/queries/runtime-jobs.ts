import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { type Db, isUniqueViolation, queryRows } from "../client";
import type { JobKind, RunStatus } from "../schema";
import { RELAXED_COMMIT } from "./commit-durability";
import { nothingReasonOfRun } from "./runs";
import { insertRunEventsSql, type NewRunEvent } from "./runtime-events";
import { insertEscalationsSql } from "./runtime-escalations";
import { insertSlotsSql, type NewSlot } from "./runtime-slots";
import { jobTraceContext } from "./job-trace";

/** The task table a workflow drives; only its `id` and `status` columns are touched. */
export type TrackedTableColumns = PgTable & { id: PgColumn; status: PgColumn };

/** `update <tracked table> set status = …` for use inside a CTE, conditional on `onlyIf`. */
export function updateTrackedStatus(table: TrackedTableColumns, taskId: string, status: string, onlyIf: SQL): SQL {
  return sql`update ${table} set ${sql.identifier(table.status.name)} = ${status}
    where ${sql.identifier(table.id.name)} = ${taskId} and ${onlyIf}`;
}

/** A job this worker holds, with the instance it is for. */
export interface ClaimedJob {
  id: number;
  kind: JobKind;
  /** The state the instance had to be in when the job was queued. */
  jobState: string;
  slotId: string | null;
  payload: unknown;
  attempts: number;
  instanceId: string;
  workflow: string;
  taskId: string;
  state: string;
  status: RunStatus;
  version: number;
  /** The trace the job was queued in (W3C trace context), or null: the run continues it. */
  traceContext: Record<string, string> | null;
  /** Whether the claim took the job over from a worker whose lease on it ran out (a worker that died or hung). */
  takenOver: boolean;
  /**
   * The tracked row, when the claim read it ({@link TrackedRowReads}): the row, or null when there is
   * none. Undefined when it was not read (its table has a column that does not read back from JSON).
   */
  item?: unknown;
}

/**
 * Column types whose JSON form (`to_jsonb` of the row) turns into the very value drizzle reads from
 * the driver: uuid, text, integers, floats, booleans, json, timestamps and dates in date mode, dates as
 * text. Anything else (numeric, bigint as bigint, timestamps as text, arrays, bytea, custom types)
 * would not, so a table with such a column is read by itself ({@link findTrackedItem}).
 */
const READS_BACK_FROM_JSON = new Set([
  "PgUUID", "PgText", "PgVarchar", "PgChar", "PgInteger", "PgSmallInt", "PgSerial", "PgSmallSerial", "PgBigInt53", "PgBigSerial53",
  "PgDoublePrecision", "PgReal", "PgBoolean", "PgJson", "PgJsonb", "PgTimestamp", "PgDate", "PgDateString", "PgEnumColumn",
]);

/** The tracked tables a claim reads the claimed run's row from, by workflow: one round trip less per job. */
export interface TrackedRowReads {
  /** `case wi.workflow when … then jsonb_build_object('row', to_jsonb(<row>)) end`, or null when no table qualifies. */
  readonly select: SQL | null;
  readonly decoders: ReadonlyMap<string, (row: Record<string, unknown>) => unknown>;
}

/** Works out, once per runtime, which workflows' rows a claim can read and how to turn them into drizzle's rows. */
export function trackedRowReads(workflows: readonly { name: string; tracks: TrackedTableColumns }[]): TrackedRowReads {
  const decoders = new Map<string, (row: Record<string, unknown>) => unknown>();
  const branches: SQL[] = [];
  for (const { name, tracks } of workflows) {
    const columns = Object.entries(getTableColumns(tracks));
    if (!columns.every(([, column]) => READS_BACK_FROM_JSON.has(column.columnType))) continue;
    branches.push(sql`when ${name} then jsonb_build_object('row', (select to_jsonb(t) from ${tracks} t where t.${sql.identifier(tracks.id.name)} = wi.task_id))`);
    decoders.set(name, (row) =>
      Object.fromEntries(columns.map(([key, column]) => [key, row[column.name] === null || row[column.name] === undefined ? null : column.mapFromDriverValue(row[column.name])])),
    );
  }
  return { select: branches.length > 0 ? sql`case wi.workflow ${sql.join(branches, sql` `)} end` : null, decoders };
}

/**
 * Claims the oldest runnable job — queued and due, or running under a lease that ran out (its
 * worker died) — with `FOR UPDATE SKIP LOCKED`, so concurrent workers never claim the same one,
 * and never a job of an instance that has another job in hand. The claim commits without waiting for
 * the disk: if a crash loses it, the job is simply queued still. With `taskId`, only a queued job of
 * that task's runs is claimed (a request running the work it just queued; abandoned jobs are the worker's).
 */
export async function claimNextJob(
  db: Db,
  claim: { workerId: string; at: Date; leaseMs: number; taskId?: string; rows?: TrackedRowReads },
): Promise<ClaimedJob | undefined> {
  // One job per instance at a time is the unique index `jobs_running_instance_idx` (one running job per
  // instance): the statement below skips instances with a job in hand as its snapshot saw them, but a
  // claim of the same instance committed after that snapshot was taken is only seen by the index. The
  // loser of that race claims again, with a snapshot that sees the winner.
  for (let attempt = 1; ; attempt++) {
    try {
      return await claimOnce(db, claim);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= CLAIM_ATTEMPTS) throw error;
    }
  }
}

/** How many times a claim is tried when another claim of the same instance keeps winning the race. */
const CLAIM_ATTEMPTS = 5;

async function claimOnce(db: Db, claim: Parameters<typeof claimNextJob>[1]): Promise<ClaimedJob | undefined> {
  const now = claim.at.toISOString();
  const until = new Date(claim.at.getTime() + claim.leaseMs).toISOString();
  // None of the instance's other jobs is in hand — a running job whose lease ran out included: that one is claimed again first, by the
  // `abandoned` branch below.
  const noOtherJobHeld = sql`not exists (
    select 1 from jobs held
    where held.workflow_instance_id = j.workflow_instance_id and held.status = 'running' and held.id <> j.id)`;
  const rows = await queryRows<{
    id: number | string;
    kind: JobKind;
    job_state: string;
    slot_id: string | null;
    payload: unknown;
    attempts: number;
    instance_id: string;
    workflow: string;
    task_id: string;
    state: string;
    status: RunStatus;
    version: number;
    trace_context: Record<string, string> | string | null;
    taken_over: boolean;
    item: { row: Record<string, unknown> | null } | string | null;
  }>(
    db,
    sql`with relaxed as (${RELAXED_COMMIT}),
        -- The oldest queued job and the oldest job whose worker's lease ran out, each read off its own
        -- partial index in its own order (the query is planned once, as a prepared statement: a plan
        -- over all jobs would grow with every job ever run); the older of the two is claimed.
        queued as (
          select j.id, j.run_at as due from jobs j join workflow_instances wi on wi.id = j.workflow_instance_id
          where j.status = 'queued' and j.run_at <= ${now}::timestamptz and ${noOtherJobHeld}
            ${claim.taskId ? sql`and wi.task_id = ${claim.taskId}` : sql``}
          order by j.run_at, j.id limit 1
          -- locking the instance row too keeps two claimers from taking two jobs of one instance at once
          for update of j, wi skip locked
        ),
        abandoned as (
          select j.id, j.locked_until as due from jobs j join workflow_instances wi on wi.id = j.workflow_instance_id
          where j.status = 'running' and j.locked_until <= ${now}::timestamptz and ${noOtherJobHeld}
            ${claim.taskId ? sql`and false` : sql``}
          order by j.locked_until, j.id limit 1
          for update of j, wi skip locked
        ),
        next as (
          select id, taken_over from (select id, due, false as taken_over from queued union all select id, due, true from abandoned) runnable
          order by due, id limit 1
        ), claimed as (
          update jobs set status = 'running', attempts = jobs.attempts + 1, locked_by = ${claim.workerId},
            locked_until = ${until}::timestamptz
          from next where jobs.id = next.id
          returning jobs.*
        )
        select c.id::float8 as id, c.kind, c.state as job_state, c.slot_id, c.payload, c.attempts, c.trace_context,
          (select taken_over from next) as taken_over,
          wi.id as instance_id, wi.workflow, wi.task_id, wi.state, wi.status, wi.version,
          ${claim.rows?.select ?? sql`null::jsonb`} as item
        from claimed c join workflow_instances wi on wi.id = c.workflow_instance_id
        where (select relaxed from relaxed) is not null`,
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: Number(row.id),
    kind: row.kind,
    jobState: row.job_state,
    slotId: row.slot_id,
    payload: row.payload,
    attempts: row.attempts,
    instanceId: row.instance_id,
    workflow: row.workflow,
    taskId: row.task_id,
    state: row.state,
    status: row.status,
    version: row.version,
    traceContext: typeof row.trace_context === "string" ? (JSON.parse(row.trace_context) as Record<string, string>) : row.trace_context,
    takenOver: row.taken_over,
    ...trackedRow(row.workflow, row.item, claim.rows),
  };
}

function trackedRow(workflow: string, item: { row: Record<string, unknown> | null } | string | null, rows: TrackedRowReads | undefined): { item?: unknown } {
  const decode = rows?.decoders.get(workflow);
  if (!decode || item === null) return {};
  const { row } = typeof item === "string" ? (JSON.parse(item) as { row: Record<string, unknown> | null }) : item;
  return { item: row === null ? null : decode(row) };
}

/** A transition was not applied: the job's lease was lost or the instance moved on meanwhile. */
export class TransitionRejectedError extends Error {
  constructor() {
    super("the job's lease was lost or the instance moved on; the transition was not applied");
    this.name = "TransitionRejectedError";
  }
}

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
  const moved = sql`exists (select 1 from moved)`;
  // The job must still be ours (locked against a takeover for the rest of the statement); it is
  // marked done only if the move is made, so a refused move leaves it running, for its failure to be recorded.
  const mine = entry.job
    ? sql`select id from jobs where id = ${entry.job.id} and status = 'running' and locked_by = ${entry.job.workerId} for update`
    : sql`select 1 as id`;
  const done = entry.job
    ? sql`update jobs set status = 'done', finished_at = ${at}::timestamptz where id = ${entry.job.id} and ${moved}`
    : sql`select 1`;
  const waiting = entry.onlyIfNothingWaits
    ? sql`select count(*)::int as waiting from asks where task_id = ${entry.taskId} and status = 'open'`
    : sql`select 0 as waiting`;
  const nothingWaits = entry.onlyIfNothingWaits ? sql`and (select waiting from waiting) = 0` : sql``;
  // A run that ends failed keeps why a question of it got no answer, if one is why (the runs list reads it by index).
  const nothingReason = entry.status === "failed" ? nothingReasonOfRun(entry.taskId) : sql`null`;
  // A new instance moves by being created; an existing one only from the version it was read at.
  const move = entry.create
    ? sql`insert into workflow_instances (id, workflow, task_id, state, status, nothing_reason, definition_fingerprint, version, created_at, updated_at)
          select ${entry.instanceId}, ${entry.create.workflow}, ${entry.taskId}, ${entry.to}, ${entry.status}, ${nothingReason}, ${entry.definitionFingerprint}, 0, ${at}::timestamptz, ${at}::timestamptz
          where exists (select 1 from mine) ${nothingWaits}
          on conflict (workflow, task_id) do nothing returning id`
    : sql`update workflow_instances set state = ${entry.to}, status = ${entry.status}, nothing_reason = ${nothingReason}, version = version + 1,
            definition_fingerprint = ${entry.definitionFingerprint}, last_error = null, updated_at = ${at}::timestamptz
          where id = ${entry.instanceId} and version = ${entry.fromVersion} and exists (select 1 from mine) ${nothingWaits}
          returning id`;
  const queue = entry.queueEnter
    ? sql`insert into jobs (kind, workflow_instance_id, state, run_at, trace_context) select 'enter', id, ${entry.to}, ${at}::timestamptz, ${jobTraceContext()} from moved`
    : sql`select 1`;
  const [first] = entry.slots;
  // The agent asks the first new slot takes over. Their current slot is read in the statement's
  // snapshot, where the slots closed above still look open: a slot of this very instance counts as closed.
  const linkable = sql`task_id = ${entry.taskId} and conversation_id is not null and status = 'open' and reason is null
    and (slot_id is null or not exists (
      select 1 from slots s where s.id = asks.slot_id and s.status = 'open' and s.workflow_instance_id <> ${entry.instanceId}))`;
  const link =
    first && entry.linkAsksTo
      ? sql`update asks set slot_id = ${first.id}, workflow_instance_id = ${entry.instanceId},
              workflow = ${entry.linkAsksTo.workflow}, event = ${entry.linkAsksTo.event}
            where ${linkable} and ${moved}
            returning id`
      : sql`select null::uuid as id where false`;
  // A question whose wait is cancelled here (its state is left unanswered) ends with nothing, reason
  // `cancelled`, in this statement: no job is queued for it, the flow has moved on. An agent's ask
  // handed to the new slot (above) is left to that slot instead.
  const cancel = sql`update asks set status = 'nothing', reason = 'cancelled', answered_at = ${at}::timestamptz
    where slot_id in (select id from closed) and status = 'open' and reason is null
      ${first && entry.linkAsksTo ? sql`and conversation_id is null` : sql``}
    returning id, task_id, workflow_instance_id, slot_id`;
  // The first slot records the agent of the earliest of them, for the SLA history.
  const firstSlotAgent = first && entry.linkAsksTo ? sql`(select agent from asks where ${linkable} order by asked_at, id limit 1)` : undefined;
  const rows = await queryRows<{ moved: number; waiting: number; linked: string[] | string | null; cancelled: CancelledQuestion[] | string | null; runnable: boolean }>(
    db,
    sql`with ${entry.relaxed ? sql`relaxed as (${RELAXED_COMMIT}),` : sql``}
        mine as (${mine}),
        waiting as (${waiting}),
        moved as (${move}),
        done as (${done}),
        closed as (
          update slots set status = 'cancelled', finished_at = ${at}::timestamptz
          where workflow_instance_id = ${entry.instanceId} and status = 'open' and ${moved}
          returning id, assignee_id, candidate_ids, candidate_group_ids
        ),
        cancelled as (${cancel}),
        cancelled_events as (
          insert into run_events (task_id, workflow_instance_id, kind, data, at)
          select task_id, workflow_instance_id, 'nothing', jsonb_build_object('questionId', id, 'reason', 'cancelled', 'by', null), ${at}::timestamptz
          from cancelled
        ),
        tracked as (${updateTrackedStatus(entry.tracks, entry.taskId, entry.status, moved)}),
        queued as (${queue}),
        opened as (${insertSlotsSql(entry.slots, moved, firstSlotAgent)}),
        escalations as (${insertEscalationsSql(entry.slots, moved)}),
        linked as (${link}),
        events as (${insertRunEventsSql(entry.events, moved)})
        select (select count(*)::int from moved) as moved, (select waiting from waiting) as waiting,
          array(select id::text from linked) as linked,
          (select coalesce(jsonb_agg(jsonb_build_object('questionId', c.id, 'slotId', c.slot_id, 'assigneeId', s.assignee_id,
              'candidateIds', s.candidate_ids, 'candidateGroupIds', s.candidate_group_ids)), '[]'::jsonb)
             from cancelled c join closed s on s.id = c.slot_id) as cancelled,
          ${runnableJobs(at)} as runnable
          ${entry.relaxed ? sql`, (select relaxed from relaxed)` : sql``}`,
  );
  const row = rows[0];
  if (!row || Number(row.moved) === 0) return { entered: false, waiting: Number(row?.waiting ?? 0) };
  const linked = Array.isArray(row.linked) ? row.linked : (row.linked ?? "").replace(/[{}]/g, "").split(",").filter(Boolean);
  const cancelled = typeof row.cancelled === "string" ? (JSON.parse(row.cancelled) as CancelledQuestion[]) : (row.cancelled ?? []);
  return { entered: true, linkedAskIds: linked, cancelledQuestions: cancelled, runnable: entry.queueEnter || Boolean(row.runnable) };
}

/** Whether any job is runnable at `at`: queued and due, or held under a lease that ran out (two index probes). */
function runnableJobs(at: string): SQL {
  return sql`(exists (select 1 from jobs where status = 'queued' and run_at <= ${at}::timestamptz)
    or exists (select 1 from jobs where status = 'running' and locked_until <= ${at}::timestamptz))`;
}

/**
 * Keeps a job this worker holds from being taken over while it is still at work: pushes its lease
 * out. Returns false when the job is no longer ours.
 */
export async function renewJobLease(db: Db, lease: { id: number; workerId: string; until: Date }): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with relaxed as (${RELAXED_COMMIT})
        update jobs set locked_until = ${lease.until.toISOString()}::timestamptz
        where id = ${lease.id} and status = 'running' and locked_by = ${lease.workerId} and (select relaxed from relaxed) is not null
        returning id`,
  );
  return rows.length > 0;
}

/**
 * Marks a job done without moving its instance (a stale job, or a handler that stayed put). Relaxed:
 * if a crash loses it, the job runs again and finds its work done.
 */
export async function finishJob(db: Db, job: { id: number; workerId: string; at: Date }): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with relaxed as (${RELAXED_COMMIT})
        update jobs set status = 'done', finished_at = ${job.at.toISOString()}::timestamptz
        where id = ${job.id} and status = 'running' and locked_by = ${job.workerId} and (select relaxed from relaxed) is not null
        returning id`,
  );
  return rows.length > 0;
}

/**
 * Hands a job this worker holds back, unfinished (a stopping process that cannot finish it): queued
 * again, its lease released, so the next claim by any worker takes it at once rather than after the
 * lease. Its attempt still counts, so the next run looks for the steps this one stored. Only while it
 * is still this worker's and running: a job finished meanwhile, or taken over by another worker, is
 * left as it is. Whatever the code still running it here commits later is refused, as after a lost
 * lease. Returns whether it was handed back.
 */
export async function releaseJob(db: Db, job: { id: number; workerId: string }): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update jobs set status = 'queued', locked_by = null, locked_until = null
        where id = ${job.id} and locked_by = ${job.workerId} and status = 'running'
        returning id`,
  );
  return rows.length > 0;
}

/**
 * Records a failed job in one statement: the job is `failed` with its cause, the instance and its
 * task read `retryable`, and a `failed` event says why. Nothing is lost: {@link requeueFailedJobs}
 * runs it again. A failure that retrying cannot mend (`retryable: false`: the workflow is wrong)
 * leaves the instance and its task `failed` instead, which nothing requeues.
 */
export async function failJob(
  db: Db,
  failure: {
    jobId: number;
    workerId: string;
    instanceId: string;
    taskId: string;
    tracks: TrackedTableColumns;
    error: string;
    /** Whether a retry may succeed; false ends the run `failed`. Default true. */
    retryable?: boolean;
    events: readonly NewRunEvent[];
    at: Date;
  },
): Promise<boolean> {
  const at = failure.at.toISOString();
  const status: RunStatus = failure.retryable === false ? "failed" : "retryable";
  const failed = sql`exists (select 1 from failed)`;
  const rows = await queryRows<{ failed: number }>(
    db,
    sql`with failed as (
          update jobs set status = 'failed', last_error = ${failure.error}, finished_at = ${at}::timestamptz
          where id = ${failure.jobId} and status = 'running' and locked_by = ${failure.workerId}
          returning id
        ), instance as (
          update workflow_instances set status = ${status}, last_error = ${failure.error}, updated_at = ${at}::timestamptz,
                 nothing_reason = ${status === "failed" ? nothingReasonOfRun(failure.taskId) : sql`null`}
          where id = ${failure.instanceId} and ${failed}
        ), tracked as (${updateTrackedStatus(failure.tracks, failure.taskId, status, failed)}),
        events as (${insertRunEventsSql(failure.events, failed)})
        select count(*)::int as failed from failed`,
  );
  return Number(rows[0]?.failed ?? 0) > 0;
}

/** Queues a retryable instance's failed jobs again, with a `retried` event naming who did (`by`); returns how many. */
export async function requeueFailedJobs(
  db: Db,
  retry: { workflow: string; taskId: string; tracks: TrackedTableColumns; by: string | null; at: Date },
): Promise<number> {
  const at = retry.at.toISOString();
  const rows = await queryRows<{ requeued: number }>(
    db,
    sql`with instance as (
          update workflow_instances set status = 'running', last_error = null, updated_at = ${at}::timestamptz
          where workflow = ${retry.workflow} and task_id = ${retry.taskId} and status = 'retryable'
          returning id
        ), requeued as (
          update jobs set status = 'queued', run_at = ${at}::timestamptz, locked_by = null, locked_until = null, finished_at = null
          where workflow_instance_id in (select id from instance) and status = 'failed'
          returning id
        ), tracked as (${updateTrackedStatus(retry.tracks, retry.taskId, "running", sql`exists (select 1 from instance)`)}),
        retried as (
          insert into run_events (task_id, workflow_instance_id, kind, data, at)
          select ${retry.taskId}::uuid, id, 'retried', jsonb_build_object('by', ${retry.by}::uuid), ${at}::timestamptz from instance
        )
        select count(*)::int as requeued from requeued`,
  );
  return Number(rows[0]?.requeued ?? 0);
}

interface PreparedRead {
  execute(values: { id: string }): Promise<unknown[]>;
}

const trackedReads = new WeakMap<Db, Map<TrackedTableColumns, PreparedRead>>();

/** Reads a tracked task row by id (a prepared statement per table, read once per job). */
export async function findTrackedItem(db: Db, tracks: TrackedTableColumns, taskId: string): Promise<unknown> {
  let reads = trackedReads.get(db);
  if (!reads) trackedReads.set(db, (reads = new Map()));
  let read = reads.get(tracks);
  if (!read) {
    read = db
      .select()
      .from(tracks)
      .where(sql`${tracks.id} = ${sql.placeholder("id")}`)
      .limit(1)
      .prepare(`parley_tracked_item_${reads.size}`) as unknown as PreparedRead;
    reads.set(tracks, read);
  }
  const [row] = await read.execute({ id: taskId });
  return row;
}
