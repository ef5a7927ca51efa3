import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { alias, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import { type Db, isUniqueViolation, queryRows } from "../client";
import { type JobKind, jobs, type RunStatus, runEvents, workflowInstances } from "../schema";
import { RELAXED_COMMIT } from "./commit-durability";
import { bareName, columnList } from "./read-aliases";
import { nothingReasonOfRun } from "./runs";
import { insertRunEventsSql, type NewRunEvent } from "./runtime-events";
import { schemaSql } from "./statement-parts";

/** The task table a workflow drives; only its `id` and `status` columns are touched. */
export type TrackedTableColumns = PgTable & { id: PgColumn; status: PgColumn };

/** `update <tracked table> set status = …` for use inside a CTE, conditional on `onlyIf`. */
export function updateTrackedStatus(table: TrackedTableColumns, taskId: string, status: string, onlyIf: SQL): SQL {
  return sql`update ${table} set ${sql.identifier(table.status.name)} = ${status}
    where ${sql.identifier(table.id.name)} = ${taskId} and ${onlyIf}`;
}

/**
 * The claim's names: a candidate job `j` and its run `wi`, another job of that run `held`, the claimed
 * job `c`; its CTEs `queued`, `abandoned` (a job id and when it came due), `next` (the one claimed) and
 * the union `runnable` they pick from, as aliases of the jobs table so what they read is named from
 * the schema. A retry's moved run is `instance`.
 */
const j = alias(jobs, "j");
const wi = alias(workflowInstances, "wi");
const held = alias(jobs, "held");
const c = alias(jobs, "c");
const queued = alias(jobs, "queued");
const abandoned = alias(jobs, "abandoned");
const runnable = alias(jobs, "runnable");
const next = alias(jobs, "next");
const instance = alias(workflowInstances, "instance");

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
    branches.push(sql`when ${name} then jsonb_build_object('row', (select to_jsonb(t) from ${tracks} t where t.${sql.identifier(tracks.id.name)} = ${wi.taskId}))`);
    decoders.set(name, (row) =>
      Object.fromEntries(columns.map(([key, column]) => [key, row[column.name] === null || row[column.name] === undefined ? null : column.mapFromDriverValue(row[column.name])])),
    );
  }
  return { select: branches.length > 0 ? sql`case ${wi.workflow} ${sql.join(branches, sql` `)} end` : null, decoders };
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
  const noOtherJobHeld = schemaSql`not exists (
    select 1 from ${jobs} ${held}
    where ${held.workflowInstanceId} = ${j.workflowInstanceId} and ${held.status} = 'running' and ${held.id} <> ${j.id})`;
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
    schemaSql`with relaxed as (${RELAXED_COMMIT}),
        -- The oldest queued job and the oldest job whose worker's lease ran out, each read off its own
        -- partial index in its own order (the query is planned once, as a prepared statement: a plan
        -- over all jobs would grow with every job ever run); the older of the two is claimed.
        ${queued} as (
          select ${j.id}, ${j.runAt} as due from ${jobs} ${j} join ${workflowInstances} ${wi} on ${wi.id} = ${j.workflowInstanceId}
          where ${j.status} = 'queued' and ${j.runAt} <= ${now}::timestamptz and ${noOtherJobHeld}
            ${claim.taskId ? schemaSql`and ${wi.taskId} = ${claim.taskId}` : schemaSql``}
          order by ${j.runAt}, ${j.id} limit 1
          -- locking the instance row too keeps two claimers from taking two jobs of one instance at once
          for update of j, wi skip locked
        ),
        ${abandoned} as (
          select ${j.id}, ${j.lockedUntil} as due from ${jobs} ${j} join ${workflowInstances} ${wi} on ${wi.id} = ${j.workflowInstanceId}
          where ${j.status} = 'running' and ${j.lockedUntil} <= ${now}::timestamptz and ${noOtherJobHeld}
            ${claim.taskId ? schemaSql`and false` : schemaSql``}
          order by ${j.lockedUntil}, ${j.id} limit 1
          for update of j, wi skip locked
        ),
        ${next} as (
          select ${runnable.id}, taken_over from (select ${queued.id}, due, false as taken_over from ${queued} union all select ${abandoned.id}, due, true from ${abandoned}) ${runnable}
          order by due, ${runnable.id} limit 1
        ), claimed as (
          update ${jobs} set ${bareName(jobs.status)} = 'running', ${bareName(jobs.attempts)} = ${jobs.attempts} + 1, ${bareName(jobs.lockedBy)} = ${claim.workerId},
            ${bareName(jobs.lockedUntil)} = ${until}::timestamptz
          from ${next} where ${jobs.id} = ${next.id}
          returning ${jobs}.*
        )
        select ${c.id}::float8 as id, ${c.kind} as kind, ${c.state} as job_state, ${c.slotId} as slot_id, ${c.payload} as payload, ${c.attempts} as attempts,
          ${c.traceContext} as trace_context, (select taken_over from ${next}) as taken_over,
          ${wi.id} as instance_id, ${wi.workflow} as workflow, ${wi.taskId} as task_id, ${wi.state} as state, ${wi.status} as status, ${wi.version} as version,
          ${claim.rows?.select ?? schemaSql`null::jsonb`} as item
        from claimed ${c} join ${workflowInstances} ${wi} on ${wi.id} = ${c.workflowInstanceId}
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

/**
 * Keeps a job this worker holds from being taken over while it is still at work: pushes its lease
 * out. Returns false when the job is no longer ours.
 */
export async function renewJobLease(db: Db, lease: { id: number; workerId: string; until: Date }): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`with relaxed as (${RELAXED_COMMIT})
        update ${jobs} set ${bareName(jobs.lockedUntil)} = ${lease.until.toISOString()}::timestamptz
        where ${jobs.id} = ${lease.id} and ${jobs.status} = 'running' and ${jobs.lockedBy} = ${lease.workerId} and (select relaxed from relaxed) is not null
        returning ${jobs.id} as id`,
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
        update ${jobs} set ${bareName(jobs.status)} = 'done', ${bareName(jobs.finishedAt)} = ${job.at.toISOString()}::timestamptz
        where ${jobs.id} = ${job.id} and ${jobs.status} = 'running' and ${jobs.lockedBy} = ${job.workerId} and (select relaxed from relaxed) is not null
        returning ${jobs.id} as id`,
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
    sql`update ${jobs} set ${bareName(jobs.status)} = 'queued', ${bareName(jobs.lockedBy)} = null, ${bareName(jobs.lockedUntil)} = null
        where ${jobs.id} = ${job.id} and ${jobs.lockedBy} = ${job.workerId} and ${jobs.status} = 'running'
        returning ${jobs.id} as id`,
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
          update ${jobs} set ${bareName(jobs.status)} = 'failed', ${bareName(jobs.lastError)} = ${failure.error}, ${bareName(jobs.finishedAt)} = ${at}::timestamptz
          where ${jobs.id} = ${failure.jobId} and ${jobs.status} = 'running' and ${jobs.lockedBy} = ${failure.workerId}
          returning ${jobs.id}
        ), instance as (
          update ${workflowInstances} set ${bareName(workflowInstances.status)} = ${status}, ${bareName(workflowInstances.lastError)} = ${failure.error},
                 ${bareName(workflowInstances.updatedAt)} = ${at}::timestamptz,
                 ${bareName(workflowInstances.nothingReason)} = ${status === "failed" ? nothingReasonOfRun(failure.taskId) : sql`null`}
          where ${workflowInstances.id} = ${failure.instanceId} and ${failed}
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
    sql`with ${instance} as (
          update ${workflowInstances} set ${bareName(workflowInstances.status)} = 'running', ${bareName(workflowInstances.lastError)} = null,
            ${bareName(workflowInstances.updatedAt)} = ${at}::timestamptz
          where ${workflowInstances.workflow} = ${retry.workflow} and ${workflowInstances.taskId} = ${retry.taskId} and ${workflowInstances.status} = 'retryable'
          returning ${workflowInstances.id}
        ), requeued as (
          update ${jobs} set ${bareName(jobs.status)} = 'queued', ${bareName(jobs.runAt)} = ${at}::timestamptz, ${bareName(jobs.lockedBy)} = null,
            ${bareName(jobs.lockedUntil)} = null, ${bareName(jobs.finishedAt)} = null
          where ${jobs.workflowInstanceId} in (select ${instance.id} from ${instance}) and ${jobs.status} = 'failed'
          returning ${jobs.id}
        ), tracked as (${updateTrackedStatus(retry.tracks, retry.taskId, "running", sql`exists (select 1 from ${instance})`)}),
        retried as (
          insert into ${runEvents} (${columnList([runEvents.taskId, runEvents.workflowInstanceId, runEvents.kind, runEvents.data, runEvents.at])})
          select ${retry.taskId}::uuid, ${instance.id}, 'retried', jsonb_build_object('by', ${retry.by}::uuid), ${at}::timestamptz from ${instance}
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
