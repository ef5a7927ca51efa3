import { type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../client";
import type { JobKind, RunStatus } from "../schema";
import { insertRunEventsSql, type NewRunEvent } from "./runtime-events";
import { insertSlots, type NewSlot } from "./runtime-slots";

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
}

/**
 * Claims the oldest runnable job — queued and due, or running under a lease that ran out (its
 * worker died) — with `FOR UPDATE SKIP LOCKED`, so concurrent workers never claim the same one,
 * and never a job of an instance that has another job in hand.
 */
export async function claimNextJob(db: Db, claim: { workerId: string; at: Date; leaseMs: number }): Promise<ClaimedJob | undefined> {
  const now = claim.at.toISOString();
  const until = new Date(claim.at.getTime() + claim.leaseMs).toISOString();
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
  }>(
    db,
    sql`with next as (
          select j.id from jobs j join workflow_instances wi on wi.id = j.workflow_instance_id
          where ((j.status = 'queued' and j.run_at <= ${now}::timestamptz)
              or (j.status = 'running' and j.locked_until <= ${now}::timestamptz))
            -- one job per instance at a time: none of its other jobs is held under a live lease
            and not exists (
              select 1 from jobs held
              where held.workflow_instance_id = j.workflow_instance_id and held.status = 'running'
                and held.locked_until > ${now}::timestamptz and held.id <> j.id
            )
          order by j.id limit 1
          -- locking the instance row too keeps two claimers from taking two jobs of one instance at once
          for update of j, wi skip locked
        ), claimed as (
          update jobs set status = 'running', attempts = jobs.attempts + 1, locked_by = ${claim.workerId},
            locked_until = ${until}::timestamptz
          from next where jobs.id = next.id
          returning jobs.*
        )
        select c.id::float8 as id, c.kind, c.state as job_state, c.slot_id, c.payload, c.attempts,
          wi.id as instance_id, wi.workflow, wi.task_id, wi.state, wi.status, wi.version
        from claimed c join workflow_instances wi on wi.id = c.workflow_instance_id`,
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
  };
}

/** Thrown inside a transition's transaction when the job was lost or the instance moved on. */
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
  /** The job that made this move; it is marked done in the same transaction (and must still be ours). */
  job?: { id: number; workerId: string };
  /** Create the instance in the same transaction (starting a workflow). */
  create?: { workflow: string };
  /** Queue a job to run the state's `enter` body. */
  queueEnter: boolean;
  slots: readonly NewSlot[];
  events: readonly NewRunEvent[];
  at: Date;
}

/**
 * Moves an instance to a state in one transaction: the job that decided it is finished, the
 * instance moves (only from the version it was read at), slots left open are closed, the tracked
 * task's status is set, the next job is queued, the new slots open and the events are appended.
 * Throws {@link TransitionRejectedError} when someone else got there first.
 */
export async function enterState(db: Db, entry: StateEntry): Promise<void> {
  const at = entry.at.toISOString();
  const moved = sql`exists (select 1 from moved)`;
  await db.transaction(async (tx) => {
    if (entry.create) {
      const created = await insertWorkflowInstance(tx as unknown as Db, {
        id: entry.instanceId,
        workflow: entry.create.workflow,
        taskId: entry.taskId,
        state: entry.to,
        status: entry.status,
        at: entry.at,
      });
      if (!created) throw new TransitionRejectedError();
    }
    const done = entry.job
      ? sql`update jobs set status = 'done', finished_at = ${at}::timestamptz
            where id = ${entry.job.id} and status = 'running' and locked_by = ${entry.job.workerId} returning id`
      : sql`select 1 as id`;
    const queue = entry.queueEnter
      ? sql`insert into jobs (kind, workflow_instance_id, state, run_at)
            select 'enter', id, ${entry.to}, ${at}::timestamptz from moved`
      : sql`select 1`;
    const rows = await queryRows<{ moved: number }>(
      tx as unknown as Db,
      sql`with done as (${done}),
          moved as (
            update workflow_instances set state = ${entry.to}, status = ${entry.status}, version = version + 1,
              last_error = null, updated_at = ${at}::timestamptz
            where id = ${entry.instanceId} and version = ${entry.fromVersion} and exists (select 1 from done)
            returning id
          ),
          closed as (
            update slots set status = 'cancelled', finished_at = ${at}::timestamptz
            where workflow_instance_id = ${entry.instanceId} and status = 'open' and ${moved}
          ),
          tracked as (${updateTrackedStatus(entry.tracks, entry.taskId, entry.status, moved)}),
          queued as (${queue}),
          events as (${insertRunEventsSql(entry.events, moved)})
          select count(*)::int as moved from moved`,
    );
    if (Number(rows[0]?.moved ?? 0) === 0) throw new TransitionRejectedError();
    await insertSlots(tx as unknown as Db, entry.slots);
  });
}

/** Creates a workflow instance for a task, unless one exists; returns its id when created. */
export async function insertWorkflowInstance(
  db: Db,
  instance: { id: string; workflow: string; taskId: string; state: string; status: RunStatus; at: Date },
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into workflow_instances (id, workflow, task_id, state, status, version, created_at, updated_at)
        values (${instance.id}, ${instance.workflow}, ${instance.taskId}, ${instance.state}, ${instance.status}, 0,
          ${instance.at.toISOString()}::timestamptz, ${instance.at.toISOString()}::timestamptz)
        on conflict (workflow, task_id) do nothing returning id`,
  );
  return rows.length > 0;
}

/** Marks a job done without moving its instance (a stale job, or a handler that stayed put). */
export async function finishJob(db: Db, job: { id: number; workerId: string; at: Date }): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`update jobs set status = 'done', finished_at = ${job.at.toISOString()}::timestamptz
        where id = ${job.id} and status = 'running' and locked_by = ${job.workerId} returning id`,
  );
  return rows.length > 0;
}

/**
 * Records a failed job in one statement: the job is `failed` with its cause, the instance and its
 * task read `retryable`, and a `failed` event says why. Nothing is lost: {@link requeueFailedJobs}
 * runs it again.
 */
export async function failJob(
  db: Db,
  failure: { jobId: number; workerId: string; instanceId: string; taskId: string; tracks: TrackedTableColumns; error: string; events: readonly NewRunEvent[]; at: Date },
): Promise<boolean> {
  const at = failure.at.toISOString();
  const failed = sql`exists (select 1 from failed)`;
  const rows = await queryRows<{ failed: number }>(
    db,
    sql`with failed as (
          update jobs set status = 'failed', last_error = ${failure.error}, finished_at = ${at}::timestamptz
          where id = ${failure.jobId} and status = 'running' and locked_by = ${failure.workerId}
          returning id
        ), instance as (
          update workflow_instances set status = 'retryable', last_error = ${failure.error}, updated_at = ${at}::timestamptz
          where id = ${failure.instanceId} and ${failed}
        ), tracked as (${updateTrackedStatus(failure.tracks, failure.taskId, "retryable", failed)}),
        events as (${insertRunEventsSql(failure.events, failed)})
        select count(*)::int as failed from failed`,
  );
  return Number(rows[0]?.failed ?? 0) > 0;
}

/** Queues a retryable instance's failed jobs again; returns how many. */
export async function requeueFailedJobs(
  db: Db,
  retry: { workflow: string; taskId: string; tracks: TrackedTableColumns; at: Date },
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
        ), tracked as (${updateTrackedStatus(retry.tracks, retry.taskId, "running", sql`exists (select 1 from instance)`)})
        select count(*)::int as requeued from requeued`,
  );
  return Number(rows[0]?.requeued ?? 0);
}

/** Reads a tracked task row by id. */
export async function findTrackedItem(db: Db, tracks: TrackedTableColumns, taskId: string): Promise<unknown> {
  const [row] = await db
    .select()
    .from(tracks)
    .where(sql`${tracks.id} = ${taskId}`)
    .limit(1);
  return row;
}
