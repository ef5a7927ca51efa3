import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { asks, type EscalationAction, groupMembers, runEvents, slotEscalations, slots as slotsTable } from "../schema";
import { a, bareName, columnList, s } from "./read-aliases";
import { recordShape, recordsOf, renderedOnce, schemaSql } from "./statement-parts";

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
  const rows = slots.flatMap((slot) => (slot.escalations ?? []).map((each) => [slot.id, each.step, each.dueAt, each.action]));
  if (rows.length === 0) return schemaSql`select 1`;
  return schemaSql`${INSERT_STEPS} from ${recordsOf(STEPS, rows)} where ${onlyIf}`;
}

/** The steps {@link insertEscalationsSql} stores, as JSON rows `r`, one field per column, in this order. */
const STEPS = recordShape("r", [slotEscalations.slotId, slotEscalations.step, slotEscalations.dueAt, slotEscalations.action]);
/** `insert into slot_escalations (<the rows' columns>) select <the rows' fields>`, rendered once. */
const INSERT_STEPS = renderedOnce(sql`insert into ${slotEscalations} (${columnList(STEPS.columns)}) select ${STEPS.fields}`);

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

/**
 * The sweep's names: a step `e`, the slots it `claimed`, the steps it `fired` (read as `f` and `x`),
 * the group steps `added` by slot, a group's members `m`; its `described` rows `d` carry a fired step's
 * columns and its slot's, so `d` is an alias of both tables (the step's and the slot's columns never
 * share a name there).
 */
const e = alias(slotEscalations, "e");
const claimed = alias(slotsTable, "claimed");
const f = alias(slotEscalations, "f");
const x = alias(slotEscalations, "x");
const added = alias(slotEscalations, "added");
const m = alias(groupMembers, "m");
const d = alias(slotEscalations, "d");
const dSlot = alias(slotsTable, "d");

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
    sql`with ${claimed} as (
          select ${s.id} from ${slotsTable} ${s}
          where ${s.id} in (select ${e.slotId} from ${slotEscalations} ${e} where ${e.firedAt} is null and ${e.dueAt} <= ${now}::timestamptz)
            and ${s.status} = 'open' and (${s.dueAt} is null or ${s.dueAt} > ${now}::timestamptz)
          order by ${s.dueAt}, ${s.id} limit ${limit}
          for update of s skip locked
        ), fired as (
          update ${slotEscalations} ${e} set ${bareName(slotEscalations.firedAt)} = ${now}::timestamptz
          from ${claimed} where ${e.slotId} = ${claimed.id} and ${e.firedAt} is null and ${e.dueAt} <= ${now}::timestamptz
          returning ${e.slotId}, ${e.step}, ${e.action}, ${e.dueAt}
        ), ${added} as (
          select ${f.slotId}, array_agg(distinct (${f.action} ->> 'groupId')::uuid) as group_ids
          from fired ${f} where ${f.action} ->> 'kind' = 'add-group' group by ${f.slotId}
        ), widened as (
          update ${slotsTable} ${s} set ${bareName(slotsTable.candidateGroupIds)} = ${s.candidateGroupIds}
              || array(select g from unnest(${added}.group_ids) as g where not g = any(${s.candidateGroupIds}))
          from ${added} where ${s.id} = ${added.slotId}
          returning ${s.id}
        ), described as (
          select ${f.slotId}, ${f.step}, ${f.action}, ${s.taskId}, ${s.workflowInstanceId}, ${s.assigneeId}, ${s.candidateIds},
            array(select distinct ${m.userId} from ${groupMembers} ${m}
                   where ${m.groupId} = any(${s.candidateGroupIds})
                      or ${m.groupId} in (select (${x.action} ->> 'groupId')::uuid from fired ${x} where ${x.slotId} = ${s.id} and ${x.action} ->> 'kind' = 'add-group')) as group_member_ids,
            round(100 * extract(epoch from (${f.dueAt} - ${s.openedAt})) / nullif(extract(epoch from (${s.dueAt} - ${s.openedAt})), 0))::int as percent,
            (select ${a.id} from ${asks} ${a} where ${a.slotId} = ${s.id} order by ${a.askedAt}, ${a.id} limit 1) as first_question
          from fired ${f} join ${slotsTable} ${s} on ${s.id} = ${f.slotId}
        ), events as (
          insert into ${runEvents} (${columnList([runEvents.taskId, runEvents.workflowInstanceId, runEvents.kind, runEvents.data, runEvents.at])})
          select ${dSlot.taskId}, ${dSlot.workflowInstanceId}, 'escalated',
            jsonb_strip_nulls(jsonb_build_object('slotId', ${d.slotId}, 'step', ${d.step}, 'action', ${d.action},
              'group', ${d.action} ->> 'group', 'percent', ${d}.percent, 'assigneeId', ${dSlot.assigneeId})),
            ${now}::timestamptz
          from described ${d} order by ${d.slotId}, ${d.step}
        )
        select ${d.slotId} as slot_id, ${d.step} as step, ${d.action} as action, ${d}.percent as percent, ${dSlot.taskId} as task_id,
          ${d}.first_question as question_id, ${dSlot.assigneeId} as assignee_id, ${dSlot.candidateIds} as candidate_ids, ${d}.group_member_ids as group_member_ids
        from described ${d} order by ${d.slotId}, ${d.step}`,
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
    sql`select ${slotEscalations.slotId} as slot_id, ${slotEscalations.step} as step, ${slotEscalations.dueAt} as due_at, ${slotEscalations.action} as action,
          ${slotEscalations.firedAt} as fired_at
        from ${slotEscalations}
        where ${slotEscalations.slotId} in (${sql.join([...new Set(slotIds)].map((id) => sql`${id}::uuid`), sql`, `)})
        order by ${slotEscalations.slotId}, ${slotEscalations.step}`,
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
