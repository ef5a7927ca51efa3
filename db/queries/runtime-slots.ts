import { type SQL, sql } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { asks, groupMembers, jobs, runEvents, slots, users } from "../schema";
import { bareName, columnList } from "./read-aliases";
import { recordShape, recordsOf, renderedOnce, schemaSql } from "./statement-parts";
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

/**
 * The statements' names: the slot a deposit finished (`won`), the slots a sweep found `due` and
 * `expired` (CTEs of slots' rows, as aliases of slots), the `questions` it ended, a group's members `gm`.
 */
const won = alias(slots, "won");
const due = alias(slots, "due");
const expired = alias(slots, "expired");
const questions = alias(asks, "questions");
const gm = alias(groupMembers, "gm");

/** A slot's columns, over the slots table or a CTE of its rows. */
type SlotColumns = Record<keyof typeof slots._.columns, PgColumn>;

/** What a {@link RawSlot} is read as, from `slot` (the slots table or a CTE of its rows). */
function slotColumnsOf(slot: SlotColumns): SQL {
  return sql`${slot.id} as id, ${slot.workflowInstanceId} as workflow_instance_id, ${slot.workflow} as workflow, ${slot.taskId} as task_id,
   ${slot.state} as state, ${slot.event} as event, ${slot.role} as role, ${slot.assigneeId} as assignee_id, ${slot.candidateIds} as candidate_ids,
   case when cardinality(${slot.candidateGroupIds}) > 0
     then array(select distinct ${gm.userId} from ${groupMembers} ${gm} where ${gm.groupId} = any(${slot.candidateGroupIds})) end as group_member_ids,
   ${slot.status} as status, ${slot.openedAt} as opened_at, ${slot.dueAt} as due_at, ${slot.finishedBy} as finished_by, ${slot.finishedAt} as finished_at,
   ${slot.waitMs}::float8 as wait_ms, ${slot.payload} as payload`;
}

/** What a job a finished or expired slot queues is written with. */
const JOB_COLUMNS = columnList([jobs.kind, jobs.workflowInstanceId, jobs.state, jobs.slotId, jobs.payload, jobs.runAt, jobs.traceContext]);
/** What a run event is written with. */
const EVENT_COLUMNS = columnList([runEvents.taskId, runEvents.workflowInstanceId, runEvents.kind, runEvents.data, runEvents.at]);

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
  const byId = selector.slotId ? sql`and ${slots.id} = ${selector.slotId}` : sql``;
  return sql`${slots.workflow} = ${selector.workflow} and ${slots.taskId} = ${selector.taskId} and ${slots.event} = ${selector.event} ${byId}`;
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
    sql`with ${won} as (
          update ${slots} set ${bareName(slots.status)} = 'finished', ${bareName(slots.finishedBy)} = ${deposit.by}, ${bareName(slots.finishedAt)} = ${at}::timestamptz,
            ${bareName(slots.waitMs)} = greatest(0, (extract(epoch from (${at}::timestamptz - ${slots.openedAt})) * 1000)::bigint),
            ${bareName(slots.payload)} = ${JSON.stringify(deposit.payload)}::jsonb
          where ${selects(deposit)} and ${slots.status} = 'open'
            and (${slots.dueAt} is null or ${slots.dueAt} > ${at}::timestamptz)
            and ${slotAnswerableBy("", deposit.by)}
          returning *
        ), queued as (
          insert into ${jobs} (${JOB_COLUMNS})
          select 'event', ${won.workflowInstanceId}, ${won.state}, ${won.id}, jsonb_build_object('event', ${won.event}, 'payload', ${won.payload}), ${at}::timestamptz, ${jobTraceContext()}
          from ${won}
        ), events as (
          insert into ${runEvents} (${EVENT_COLUMNS})
          select ${won.taskId}, ${won.workflowInstanceId}, 'answered',
            jsonb_build_object('event', ${won.event}, 'slotId', ${won.id}, 'by', ${won.finishedBy}, 'waitMs', ${won.waitMs}), ${at}::timestamptz
          from ${won}
        )
        select ${slotColumnsOf(won)} from ${won}`,
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
    sql`select ${slotColumnsOf(slots)}, (select ${users.name} from ${users} where ${users.id} = ${slots.finishedBy}) as finished_by_name
        from ${slots} where ${selects(selector)}
        order by (${slots.status} = 'open') desc, ${slots.openedAt} desc limit 1`,
  );
  const row = rows[0];
  return row ? { ...toSlot(row), finishedByName: row.finished_by_name } : undefined;
}

/** The open slots a person may answer: one query over the assignee and candidate indexes. */
export async function listAnswerableSlots(db: Db, userId: string): Promise<SlotRow[]> {
  const rows = await queryRows<RawSlot>(
    db,
    sql`select ${slotColumnsOf(slots)} from ${slots}
        where ${slots.status} = 'open' and ${slotAnswerableBy("", userId)}
        order by ${slots.dueAt} nulls last, ${slots.openedAt}`,
  );
  return rows.map(toSlot);
}

/** A task's slots, oldest first. */
export async function listSlotsForTask(db: Db, taskId: string): Promise<SlotRow[]> {
  const rows = await queryRows<RawSlot>(db, sql`select ${slotColumnsOf(slots)} from ${slots} where ${slots.taskId} = ${taskId} order by ${slots.openedAt}, ${slots.id}`);
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
    sql`with ${due} as (
          select ${slots.id} from ${slots}
          where ${slots.status} = 'open' and ${slots.dueAt} is not null and ${slots.dueAt} <= ${now}::timestamptz
          order by ${slots.dueAt} limit ${limit}
          for update skip locked
        ), ${expired} as (
          update ${slots} set ${bareName(slots.status)} = 'expired', ${bareName(slots.finishedAt)} = ${now}::timestamptz,
            ${bareName(slots.waitMs)} = greatest(0, (extract(epoch from (${now}::timestamptz - ${slots.openedAt})) * 1000)::bigint)
          from ${due} where ${slots.id} = ${due.id} and ${slots.status} = 'open'
          returning ${slots}.*
        ), queued as (
          insert into ${jobs} (${JOB_COLUMNS})
          select 'expire', ${expired.workflowInstanceId}, ${expired.state}, ${expired.id}, jsonb_build_object('event', ${expired.event}), ${now}::timestamptz, ${jobTraceContext()}
          from ${expired}
        ), ${questions} as (
          -- The questions the slot was taking answers for end with nothing: nobody answered in time.
          update ${asks} set ${bareName(asks.status)} = 'nothing', ${bareName(asks.reason)} = 'expired', ${bareName(asks.answeredAt)} = ${now}::timestamptz
          where ${asks.slotId} in (select ${expired.id} from ${expired}) and ${asks.status} = 'open' and ${asks.reason} is null
          returning ${asks.id}, ${asks.taskId}, ${asks.workflowInstanceId}
        ), events as (
          insert into ${runEvents} (${EVENT_COLUMNS})
          select ${expired.taskId}, ${expired.workflowInstanceId}, 'slot-expired',
            jsonb_build_object('event', ${expired.event}, 'slotId', ${expired.id}, 'dueAt', ${expired.dueAt}, 'waitMs', ${expired.waitMs}), ${now}::timestamptz
          from ${expired}
          union all
          select ${questions.taskId}, ${questions.workflowInstanceId}, 'nothing', jsonb_build_object('questionId', ${questions.id}, 'reason', 'expired'), ${now}::timestamptz
          from ${questions}
        )
        select ${slotColumnsOf(expired)} from ${expired}`,
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
  if (opening.length === 0) return schemaSql`select 1`;
  const rows = opening.map((slot) => [
    slot.id, slot.workflowInstanceId, slot.workflow, slot.taskId, slot.state, slot.event, slot.role, slot.assigneeId,
    slot.candidateIds, slot.candidateGroupIds ?? [], slot.delegatedFrom ?? null, slot.openedAt, slot.dueAt,
  ]);
  const agent = firstSlotAgent ? schemaSql`case when ${OPENED_SLOT_ID} = ${opening[0]!.id}::uuid then ${firstSlotAgent} end` : schemaSql`null`;
  return schemaSql`${INSERT_OPENED_SLOTS}, ${agent} from ${recordsOf(OPENED_SLOTS, rows)} where ${onlyIf}`;
}

/** The slots {@link insertSlotsSql} opens, as JSON rows `r`, one field per column, in this order. */
const OPENED_SLOTS = recordShape("r", [
  slots.id, slots.workflowInstanceId, slots.workflow, slots.taskId, slots.state, slots.event, slots.role, slots.assigneeId,
  slots.candidateIds, slots.candidateGroupIds, slots.delegatedFrom, slots.openedAt, slots.dueAt,
]);
const OPENED_SLOT_ID = renderedOnce(sql`${sql.identifier("r")}.${bareName(slots.id)}`);
/** `insert into slots (<the rows' columns>, agent) select <the rows' fields>` — the part that never changes, rendered once. */
const INSERT_OPENED_SLOTS = renderedOnce(sql`insert into ${slots} (${columnList([...OPENED_SLOTS.columns, slots.agent])}) select ${OPENED_SLOTS.fields}`);
