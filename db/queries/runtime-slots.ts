import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows, toDate } from "../client";
import { slots } from "../schema";
import { columnList } from "./read-aliases";
import { type ColumnValues, fieldOf, recordsOf } from "./statement-parts";
import type { NewEscalationStep } from "./runtime-escalations";
import { slotAnswerableBy } from "./slot-parties";
import { jobTraceContext } from "./job-trace";

/** A slot as the runtime reads it. */
export interface SlotRow {
  id: string;
  workflowInstanceId: string;
  workflow: string;
  taskId: string;
  state: string;
  event: string;
  role: string | null;
  assigneeId: string | null;
  candidateIds: string[];
  /** The members, now, of the groups whose members may answer too. */
  groupMemberIds: string[];
  status: "open" | "finished" | "expired" | "cancelled" | "closed";
  openedAt: Date;
  dueAt: Date | null;
  finishedBy: string | null;
  finishedAt: Date | null;
  waitMs: number | null;
  payload: unknown;
}

interface RawSlot {
  id: string;
  workflow_instance_id: string;
  workflow: string;
  task_id: string;
  state: string;
  event: string;
  role: string | null;
  assignee_id: string | null;
  candidate_ids: string[] | string;
  group_member_ids: string[] | string | null;
  status: SlotRow["status"];
  opened_at: Date | string;
  due_at: Date | string | null;
  finished_by: string | null;
  finished_at: Date | string | null;
  wait_ms: number | string | null;
  payload: unknown;
}

const SLOT_COLUMNS = sql.raw(
  `id, workflow_instance_id, workflow, task_id, state, event, role, assignee_id, candidate_ids,
   case when cardinality(candidate_group_ids) > 0
     then array(select distinct gm.user_id from group_members gm where gm.group_id = any(candidate_group_ids)) end as group_member_ids,
   status, opened_at, due_at, finished_by, finished_at, wait_ms::float8 as wait_ms, payload`,
);

/** A uuid[] as the driver hands it back: an array, or (a driver that does not parse uuid[]) its text form. */
function uuids(value: string[] | string | null): string[] {
  return Array.isArray(value) ? value : (value ?? "").replace(/[{}]/g, "").split(",").filter(Boolean);
}

/** Who a slot is for: its assignee, its candidates and its candidate groups' members. */
export function slotParties(slot: Pick<SlotRow, "assigneeId" | "candidateIds" | "groupMemberIds">): string[] {
  return [...new Set([...(slot.assigneeId ? [slot.assigneeId] : []), ...slot.candidateIds, ...slot.groupMemberIds])];
}

function toSlot(raw: RawSlot): SlotRow {
  return {
    id: raw.id,
    workflowInstanceId: raw.workflow_instance_id,
    workflow: raw.workflow,
    taskId: raw.task_id,
    state: raw.state,
    event: raw.event,
    role: raw.role,
    assigneeId: raw.assignee_id,
    candidateIds: uuids(raw.candidate_ids),
    groupMemberIds: uuids(raw.group_member_ids),
    status: raw.status,
    openedAt: toDate(raw.opened_at),
    dueAt: toDate(raw.due_at),
    finishedBy: raw.finished_by,
    finishedAt: toDate(raw.finished_at),
    waitMs: raw.wait_ms === null ? null : Number(raw.wait_ms),
    payload: raw.payload,
  };
}

/** Which slot a deposit is for: by id, or the open one of a task's workflow for an event. */
export interface SlotSelector {
  workflow: string;
  taskId: string;
  event: string;
  slotId?: string;
}

function selects(selector: SlotSelector) {
  const byId = selector.slotId ? sql`and id = ${selector.slotId}` : sql``;
  return sql`workflow = ${selector.workflow} and task_id = ${selector.taskId} and event = ${selector.event} ${byId}`;
}


/**
 * The deposit: one conditional update (open, not past due, this caller allowed) that finishes the
 * slot, records who and how long, queues the job that runs the handler and appends the `answered`
 * event — all or nothing. Returns the finished slot, or nothing when this caller did not win.
 */
export async function depositIntoSlot(
  db: Db,
  deposit: SlotSelector & { by: string; payload: unknown; at: Date },
): Promise<SlotRow | undefined> {
  const at = deposit.at.toISOString();
  const rows = await queryRows<RawSlot>(
    db,
    sql`with won as (
          update slots set status = 'finished', finished_by = ${deposit.by}, finished_at = ${at}::timestamptz,
            wait_ms = greatest(0, (extract(epoch from (${at}::timestamptz - opened_at)) * 1000)::bigint),
            payload = ${JSON.stringify(deposit.payload)}::jsonb
          where ${selects(deposit)} and status = 'open'
            and (due_at is null or due_at > ${at}::timestamptz)
            and ${slotAnswerableBy("", deposit.by)}
          returning *
        ), queued as (
          insert into jobs (kind, workflow_instance_id, state, slot_id, payload, run_at, trace_context)
          select 'event', workflow_instance_id, state, id, jsonb_build_object('event', event, 'payload', payload), ${at}::timestamptz, ${jobTraceContext()}
          from won
        ), events as (
          insert into run_events (task_id, workflow_instance_id, kind, data, at)
          select task_id, workflow_instance_id, 'answered',
            jsonb_build_object('event', event, 'slotId', id, 'by', finished_by, 'waitMs', wait_ms), ${at}::timestamptz
          from won
        )
        select ${SLOT_COLUMNS} from won`,
  );
  return rows[0] ? toSlot(rows[0]) : undefined;
}

/** The slot a failed deposit was aimed at (the latest, when not named) and who finished it, to explain why. */
export async function findSlotForExplanation(
  db: Db,
  selector: SlotSelector,
): Promise<(SlotRow & { finishedByName: string | null }) | undefined> {
  const rows = await queryRows<RawSlot & { finished_by_name: string | null }>(
    db,
    sql`select ${SLOT_COLUMNS}, (select name from users where users.id = slots.finished_by) as finished_by_name
        from slots where ${selects(selector)}
        order by (status = 'open') desc, opened_at desc limit 1`,
  );
  const row = rows[0];
  return row ? { ...toSlot(row), finishedByName: row.finished_by_name } : undefined;
}

/** The open slots a person may answer: one query over the assignee and candidate indexes. */
export async function listAnswerableSlots(db: Db, userId: string): Promise<SlotRow[]> {
  const rows = await queryRows<RawSlot>(
    db,
    sql`select ${SLOT_COLUMNS} from slots
        where status = 'open' and ${slotAnswerableBy("", userId)}
        order by due_at nulls last, opened_at`,
  );
  return rows.map(toSlot);
}

/** A task's slots, oldest first. */
export async function listSlotsForTask(db: Db, taskId: string): Promise<SlotRow[]> {
  const rows = await queryRows<RawSlot>(db, sql`select ${SLOT_COLUMNS} from slots where task_id = ${taskId} order by opened_at, id`);
  return rows.map(toSlot);
}

/**
 * The SLA sweep: expires open slots whose due time has passed and queues each one's `unfinished`
 * job, in one statement; the questions they were for end with nothing (reason `expired`). Rows another
 * sweeper holds are skipped, so two instances never expire the same slot; returns the slots this call expired.
 */
export async function expireDueSlots(db: Db, at: Date, limit = 100): Promise<SlotRow[]> {
  const now = at.toISOString();
  const rows = await queryRows<RawSlot>(
    db,
    sql`with due as (
          select id from slots
          where status = 'open' and due_at is not null and due_at <= ${now}::timestamptz
          order by due_at limit ${limit}
          for update skip locked
        ), expired as (
          update slots set status = 'expired', finished_at = ${now}::timestamptz,
            wait_ms = greatest(0, (extract(epoch from (${now}::timestamptz - opened_at)) * 1000)::bigint)
          from due where slots.id = due.id and slots.status = 'open'
          returning slots.*
        ), queued as (
          insert into jobs (kind, workflow_instance_id, state, slot_id, payload, run_at, trace_context)
          select 'expire', workflow_instance_id, state, id, jsonb_build_object('event', event), ${now}::timestamptz, ${jobTraceContext()}
          from expired
        ), questions as (
          -- The questions the slot was taking answers for end with nothing: nobody answered in time.
          update asks set status = 'nothing', reason = 'expired', answered_at = ${now}::timestamptz
          where slot_id in (select id from expired) and status = 'open' and reason is null
          returning id, task_id, workflow_instance_id
        ), events as (
          insert into run_events (task_id, workflow_instance_id, kind, data, at)
          select task_id, workflow_instance_id, 'slot-expired',
            jsonb_build_object('event', event, 'slotId', id, 'dueAt', due_at, 'waitMs', wait_ms), ${now}::timestamptz
          from expired
          union all
          select task_id, workflow_instance_id, 'nothing', jsonb_build_object('questionId', id, 'reason', 'expired'), ${now}::timestamptz
          from questions
        )
        select ${SLOT_COLUMNS} from expired`,
  );
  return rows.map(toSlot);
}

/** A slot to open when a state is entered. */
export interface NewSlot {
  id: string;
  workflowInstanceId: string;
  workflow: string;
  taskId: string;
  state: string;
  event: string;
  role: string | null;
  assigneeId: string | null;
  candidateIds: readonly string[];
  /** Groups whose members may answer too (none when left out). */
  candidateGroupIds?: readonly string[];
  /** The assignee meant, who is away and named `assigneeId` as their delegate. */
  delegatedFrom?: string | null;
  openedAt: Date;
  dueAt: Date | null;
  /** Its escalation chain, stored with it (insertEscalationsSql). */
  escalations?: readonly NewEscalationStep[];
}

/**
 * `insert into slots …` for use inside a CTE, conditional on `onlyIf`; the first slot's agent is
 * `firstSlotAgent` (an SQL expression) when given.
 */
export function insertSlotsSql(opening: readonly NewSlot[], onlyIf: SQL, firstSlotAgent?: SQL): SQL {
  if (opening.length === 0) return sql`select 1`;
  const rows = opening.map((slot) => [
    [slots.id, slot.id],
    [slots.workflowInstanceId, slot.workflowInstanceId],
    [slots.workflow, slot.workflow],
    [slots.taskId, slot.taskId],
    [slots.state, slot.state],
    [slots.event, slot.event],
    [slots.role, slot.role],
    [slots.assigneeId, slot.assigneeId],
    [slots.candidateIds, slot.candidateIds],
    [slots.candidateGroupIds, slot.candidateGroupIds ?? []],
    [slots.delegatedFrom, slot.delegatedFrom ?? null],
    [slots.openedAt, slot.openedAt],
    [slots.dueAt, slot.dueAt],
  ] as const satisfies ColumnValues);
  const columns = rows[0]!.map(([column]) => column);
  const agent = firstSlotAgent ? sql`case when ${fieldOf("r", slots.id)} = ${opening[0]!.id}::uuid then ${firstSlotAgent} end` : sql`null`;
  return sql`insert into ${slots} (${columnList([...columns, slots.agent])})
    select ${sql.join(columns.map((column) => fieldOf("r", column)), sql`, `)}, ${agent}
    from ${recordsOf("r", rows)}
    where ${onlyIf}`;
}
