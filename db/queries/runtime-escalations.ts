import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows, toDate } from "../client";
import { type EscalationAction, slotEscalations } from "../schema";
import { columnList } from "./read-aliases";
import { type ColumnValues, fieldOf, recordsOf } from "./statement-parts";

/** One escalation step to store with a slot as it opens: its number (firing order, from 1), its moment and what it does. */
export interface NewEscalationStep {
  step: number;
  dueAt: Date;
  action: EscalationAction;
}

/**
 * `insert into slot_escalations …` for use inside the CTE that opens the slots, conditional on
 * `onlyIf`: the chain commits with its slot or not at all.
 */
export function insertEscalationsSql(slots: readonly { id: string; escalations?: readonly NewEscalationStep[] }[], onlyIf: SQL): SQL {
  const c = slotEscalations;
  const rows = slots.flatMap((slot) =>
    (slot.escalations ?? []).map((each) => [[c.slotId, slot.id], [c.step, each.step], [c.dueAt, each.dueAt], [c.action, each.action]] as const satisfies ColumnValues),
  );
  if (rows.length === 0) return sql`select 1`;
  const columns = rows[0]!.map(([column]) => column);
  return sql`insert into ${slotEscalations} (${columnList(columns)})
    select ${sql.join(columns.map((column) => fieldOf("r", column)), sql`, `)}
    from ${recordsOf("r", rows)}
    where ${onlyIf}`;
}

/** A step the sweep fired, with what the announce hooks need of its slot. */
export interface FiredEscalation {
  slotId: string;
  step: number;
  action: EscalationAction;
  /** The step's moment as a percentage of the slot's SLA, rounded. */
  percent: number;
  taskId: string;
  /** The question the slot takes the answer for, when there is one. */
  questionId: string | null;
  assigneeId: string | null;
  candidateIds: string[];
  /** The members of the slot's candidate groups, the added group included. */
  groupMemberIds: string[];
}

function uuids(value: string[] | string | null): string[] {
  return Array.isArray(value) ? value : (value ?? "").replace(/[{}]/g, "").split(",").filter(Boolean);
}

/**
 * The escalation sweep, one statement: claims up to `limit` open slots, not yet past their deadline,
 * that have steps due and unfired (`for update skip locked`: a slot's steps are fired by one sweeper,
 * in order), marks those steps fired, adds each `add-group` step's group to its slot's candidate
 * groups (once) and records an `escalated` run event per step, in step order. A step is marked fired
 * only where it is still unfired, so however many sweepers run, each step fires once. Steps of a slot
 * that is no longer open, or whose deadline has passed (its expiry decides), never fire.
 */
export async function fireDueEscalations(db: Db, at: Date, limit = 100): Promise<FiredEscalation[]> {
  const now = at.toISOString();
  const rows = await queryRows<{
    slot_id: string;
    step: number;
    action: EscalationAction | string;
    percent: number | string | null;
    task_id: string;
    question_id: string | null;
    assignee_id: string | null;
    candidate_ids: string[] | string;
    group_member_ids: string[] | string | null;
  }>(
    db,
    sql`with claimed as (
          select s.id from slots s
          where s.id in (select e.slot_id from slot_escalations e where e.fired_at is null and e.due_at <= ${now}::timestamptz)
            and s.status = 'open' and (s.due_at is null or s.due_at > ${now}::timestamptz)
          order by s.due_at, s.id limit ${limit}
          for update of s skip locked
        ), fired as (
          update slot_escalations e set fired_at = ${now}::timestamptz
          from claimed where e.slot_id = claimed.id and e.fired_at is null and e.due_at <= ${now}::timestamptz
          returning e.slot_id, e.step, e.action, e.due_at
        ), added as (
          select f.slot_id, array_agg(distinct (f.action ->> 'groupId')::uuid) as group_ids
          from fired f where f.action ->> 'kind' = 'add-group' group by f.slot_id
        ), widened as (
          update slots s set candidate_group_ids = s.candidate_group_ids
              || array(select g from unnest(added.group_ids) as g where not g = any(s.candidate_group_ids))
          from added where s.id = added.slot_id
          returning s.id
        ), described as (
          select f.slot_id, f.step, f.action, s.task_id, s.workflow_instance_id, s.assignee_id, s.candidate_ids,
            array(select distinct m.user_id from group_members m
                   where m.group_id = any(s.candidate_group_ids)
                      or m.group_id in (select (x.action ->> 'groupId')::uuid from fired x where x.slot_id = s.id and x.action ->> 'kind' = 'add-group')) as group_member_ids,
            round(100 * extract(epoch from (f.due_at - s.opened_at)) / nullif(extract(epoch from (s.due_at - s.opened_at)), 0))::int as percent,
            (select a.id from asks a where a.slot_id = s.id order by a.asked_at, a.id limit 1) as question_id
          from fired f join slots s on s.id = f.slot_id
        ), events as (
          insert into run_events (task_id, workflow_instance_id, kind, data, at)
          select d.task_id, d.workflow_instance_id, 'escalated',
            jsonb_strip_nulls(jsonb_build_object('slotId', d.slot_id, 'step', d.step, 'action', d.action,
              'group', d.action ->> 'group', 'percent', d.percent, 'assigneeId', d.assignee_id)),
            ${now}::timestamptz
          from described d order by d.slot_id, d.step
        )
        select slot_id, step, action, percent, task_id, question_id, assignee_id, candidate_ids, group_member_ids
        from described order by slot_id, step`,
  );
  return rows.map((row) => ({
    slotId: row.slot_id,
    step: Number(row.step),
    action: typeof row.action === "string" ? (JSON.parse(row.action) as EscalationAction) : row.action,
    percent: Number(row.percent ?? 0),
    taskId: row.task_id,
    questionId: row.question_id,
    assigneeId: row.assignee_id,
    candidateIds: uuids(row.candidate_ids),
    groupMemberIds: uuids(row.group_member_ids),
  }));
}

/** A slot's escalation step as screens show it. */
export interface EscalationStepRow {
  step: number;
  dueAt: Date;
  action: EscalationAction;
  firedAt: Date | null;
}

/** The escalation steps of these slots, in step order, by slot id (slots without a chain are left out). */
export async function listEscalationSteps(db: Db, slotIds: readonly string[]): Promise<Map<string, EscalationStepRow[]>> {
  const bySlot = new Map<string, EscalationStepRow[]>();
  if (slotIds.length === 0) return bySlot;
  const rows = await queryRows<{ slot_id: string; step: number; due_at: Date | string; action: EscalationAction | string; fired_at: Date | string | null }>(
    db,
    sql`select slot_id, step, due_at, action, fired_at from slot_escalations
        where slot_id in (${sql.join([...new Set(slotIds)].map((id) => sql`${id}::uuid`), sql`, `)})
        order by slot_id, step`,
  );
  for (const row of rows) {
    const step = {
      step: Number(row.step),
      dueAt: toDate(row.due_at),
      action: typeof row.action === "string" ? (JSON.parse(row.action) as EscalationAction) : row.action,
      firedAt: toDate(row.fired_at),
    };
    bySlot.set(row.slot_id, [...(bySlot.get(row.slot_id) ?? []), step]);
  }
  return bySlot;
}
