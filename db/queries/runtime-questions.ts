import { sql } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { asks, groupMembers, jobs, type NothingReason, type QuestionStatus, runEvents, slots, users, workflowInstances } from "../schema";
import type { QuestionSpec } from "../types/question-spec";
import { insertEscalationsSql, type NewEscalationStep } from "./runtime-escalations";
import { insertRunEventsSql, type NewRunEvent } from "./runtime-events";
import { afterCursor, CURSOR_PLACE, DUE_ORDER, OPEN_PARTS, openWalk, rowOrder, SERIAL_READ, teamSetsCte, type WalkCursor, walkedRows } from "./open-slot-walks";
import { a, bareName, columnList, s } from "./read-aliases";
import { slotAnswerableBy } from "./slot-parties";
import { jobTraceContext } from "./job-trace";
import { renderedOnce, schemaSql } from "./statement-parts";

/** A question record with the slot that takes its answer, as the runtime and the inbox read it. */
export interface QuestionRow {
  id: string;
  taskId: string;
  /** Set for an agent's ask. */
  agent: string | null;
  conversationId: string | null;
  workflowInstanceId: string | null;
  workflow: string | null;
  event: string | null;
  title: string | null;
  spec: QuestionSpec;
  /** The JSON Schema that judges its answers, when it came with the ask as data. */
  responseSchema: Record<string, unknown> | null;
  attemptsAllowed: number;
  attemptsUsed: number;
  status: QuestionStatus;
  reason: NothingReason | null;
  answer: unknown;
  answeredBy: string | null;
  answeredByName: string | null;
  /** Set when a party declined it (reason `declined`): who, and the note they left for the asker. */
  declinedBy: string | null;
  declinedByName: string | null;
  declineNote: string | null;
  askedAt: Date;
  answeredAt: Date | null;
  slot: {
    id: string;
    status: "open" | "finished" | "expired" | "cancelled" | "closed";
    assigneeId: string | null;
    candidateIds: string[];
    /** Groups whose members may answer too, and those members as they are now. */
    candidateGroupIds: string[];
    groupMemberIds: string[];
    /** The candidate who said "I'll take it", while they hold it. */
    claimedBy: string | null;
    claimedByName: string | null;
    claimedAt: Date | null;
    /** The person it was meant for, away, whose delegate it went to. */
    delegatedFrom: string | null;
    delegatedFromName: string | null;
    role: string | null;
    openedAt: Date;
    dueAt: Date | null;
    finishedBy: string | null;
    finishedByName: string | null;
    finishedAt: Date | null;
  } | null;
}

interface RawQuestion {
  id: string;
  task_id: string;
  agent: string | null;
  conversation_id: string | null;
  workflow_instance_id: string | null;
  workflow: string | null;
  event: string | null;
  title: string | null;
  spec: QuestionSpec;
  response_schema: Record<string, unknown> | null;
  attempts_allowed: number;
  attempts_used: number;
  status: QuestionStatus;
  reason: NothingReason | null;
  answer: unknown;
  answered_by: string | null;
  answered_by_name: string | null;
  declined_by: string | null;
  declined_by_name: string | null;
  decline_note: string | null;
  asked_at: Date | string;
  answered_at: Date | string | null;
  slot_id: string | null;
  slot_status: NonNullable<QuestionRow["slot"]>["status"] | null;
  assignee_id: string | null;
  candidate_ids: string[] | string | null;
  candidate_group_ids: string[] | string | null;
  group_member_ids: string[] | string | null;
  claimed_by: string | null;
  claimed_by_name: string | null;
  claimed_at: Date | string | null;
  delegated_from: string | null;
  delegated_from_name: string | null;
  role: string | null;
  opened_at: Date | string | null;
  due_at: Date | string | null;
  finished_by: string | null;
  finished_by_name: string | null;
  finished_at: Date | string | null;
}

/** A person's name, by the user id in `id`. */
const nameOf = (id: PgColumn) => sql`(select ${users.name} from ${users} where ${users.id} = ${id})`;

/** Question `a` with its slot `s`, in the columns of {@link RawQuestion}. */
const QUESTION_SELECT = renderedOnce(sql`select ${a.id} as id, ${a.taskId} as task_id, ${a.agent} as agent, ${a.conversationId} as conversation_id,
    ${a.workflowInstanceId} as workflow_instance_id, ${a.workflow} as workflow, ${a.event} as event, ${a.title} as title,
    ${a.spec} as spec, ${a.responseSchema} as response_schema, ${a.attemptsAllowed} as attempts_allowed, ${a.attemptsUsed} as attempts_used,
    ${a.status} as status, ${a.reason} as reason, ${a.answer} as answer, ${a.answeredBy} as answered_by,
    ${nameOf(a.answeredBy)} as answered_by_name,
    ${a.declinedBy} as declined_by, ${nameOf(a.declinedBy)} as declined_by_name, ${a.declineNote} as decline_note,
    ${a.askedAt} as asked_at, ${a.answeredAt} as answered_at,
    ${s.id} as slot_id, ${s.status} as slot_status, ${s.assigneeId} as assignee_id, ${s.candidateIds} as candidate_ids,
    ${s.candidateGroupIds} as candidate_group_ids,
    case when cardinality(${s.candidateGroupIds}) > 0
      then array(select distinct ${groupMembers.userId} from ${groupMembers} where ${groupMembers.groupId} = any(${s.candidateGroupIds})) end as group_member_ids,
    ${s.claimedBy} as claimed_by, ${nameOf(s.claimedBy)} as claimed_by_name, ${s.claimedAt} as claimed_at,
    ${s.delegatedFrom} as delegated_from, ${nameOf(s.delegatedFrom)} as delegated_from_name,
    ${s.role} as role, ${s.openedAt} as opened_at, ${s.dueAt} as due_at, ${s.finishedBy} as finished_by,
    ${nameOf(s.finishedBy)} as finished_by_name, ${s.finishedAt} as finished_at
  from ${asks} ${a} left join ${slots} ${s} on ${s.id} = ${a.slotId}`);

/** A uuid[] as the driver hands it back: an array, or (a driver that does not parse uuid[]) its text form. */
function uuids(value: string[] | string | null): string[] {
  return Array.isArray(value) ? value : (value ?? "").replace(/[{}]/g, "").split(",").filter(Boolean);
}

function toQuestion(raw: RawQuestion): QuestionRow {
  return {
    id: raw.id,
    taskId: raw.task_id,
    agent: raw.agent,
    conversationId: raw.conversation_id,
    workflowInstanceId: raw.workflow_instance_id,
    workflow: raw.workflow,
    event: raw.event,
    title: raw.title,
    spec: raw.spec,
    responseSchema: raw.response_schema,
    attemptsAllowed: Number(raw.attempts_allowed),
    attemptsUsed: Number(raw.attempts_used),
    status: raw.status,
    reason: raw.reason,
    answer: raw.answer,
    answeredBy: raw.answered_by,
    answeredByName: raw.answered_by_name,
    declinedBy: raw.declined_by,
    declinedByName: raw.declined_by_name,
    declineNote: raw.decline_note,
    askedAt: toDate(raw.asked_at),
    answeredAt: toDate(raw.answered_at),
    slot:
      raw.slot_id && raw.slot_status && raw.opened_at
        ? {
            id: raw.slot_id,
            status: raw.slot_status,
            assigneeId: raw.assignee_id,
            candidateIds: uuids(raw.candidate_ids),
            candidateGroupIds: uuids(raw.candidate_group_ids),
            groupMemberIds: uuids(raw.group_member_ids),
            claimedBy: raw.claimed_by,
            claimedByName: raw.claimed_by_name,
            claimedAt: toDate(raw.claimed_at),
            delegatedFrom: raw.delegated_from,
            delegatedFromName: raw.delegated_from_name,
            role: raw.role,
            openedAt: toDate(raw.opened_at),
            dueAt: toDate(raw.due_at),
            finishedBy: raw.finished_by,
            finishedByName: raw.finished_by_name,
            finishedAt: toDate(raw.finished_at),
          }
        : null,
  };
}

/** Who a question's slot is for: the assignee, the candidates and the members of its candidate groups. */
export function partiesOf(question: { slot: Pick<NonNullable<QuestionRow["slot"]>, "assigneeId" | "candidateIds" | "groupMemberIds"> | null }): string[] {
  if (!question.slot) return [];
  const { assigneeId, candidateIds, groupMemberIds } = question.slot;
  return [...new Set([...(assigneeId ? [assigneeId] : []), ...candidateIds, ...groupMemberIds])];
}

/** Whether `userId` may answer the question now: it is for them, and no other candidate has claimed it. */
export function mayAnswer(question: Pick<QuestionRow, "slot">, userId: string): boolean {
  const slot = question.slot;
  if (!slot || !partiesOf(question).includes(userId)) return false;
  return slot.claimedBy === null || slot.claimedBy === userId || slot.assigneeId === userId;
}

/** One question with its slot. */
export async function findQuestion(db: Db, questionId: string): Promise<QuestionRow | undefined> {
  const rows = await queryRows<RawQuestion>(db, schemaSql`${QUESTION_SELECT} where ${a.id} = ${questionId}`);
  return rows[0] ? toQuestion(rows[0]) : undefined;
}

/** A task's questions, oldest first. */
export async function listQuestionsForTask(db: Db, taskId: string): Promise<QuestionRow[]> {
  const rows = await queryRows<RawQuestion>(db, sql`${QUESTION_SELECT} where ${a.taskId} = ${taskId} order by ${a.askedAt}, ${a.id}`);
  return rows.map(toQuestion);
}

/**
 * The newest question of a task, other than `except`, that is open and `userId` may answer now: what
 * the same run asks them next. One probe of the task's open questions (`asks_open_task_idx`).
 */
export async function findOpenQuestionOfTaskFor(db: Db, taskId: string, userId: string, except: string): Promise<QuestionRow | undefined> {
  const rows = await queryRows<RawQuestion>(
    db,
    sql`${QUESTION_SELECT} where ${a.taskId} = ${taskId} and ${a.status} = 'open' and ${a.id} <> ${except} and ${a.reason} is null
      and ${s.status} = 'open' and ${slotAnswerableBy("s.", userId)}
      order by ${a.askedAt} desc, ${a.id} desc limit 1`,
  );
  return rows[0] ? toQuestion(rows[0]) : undefined;
}

/** One page of a list of questions: at most `limit`, after the question `after` in the list's order. */
export interface QuestionPageRequest {
  limit: number;
  /**
   * The last question of the previous page. Its place in the order is read from the question itself,
   * so the page after it is right even once it has been answered; an id that names no question gives
   * an empty page.
   */
  after?: string | null;
}

/**
 * The questions a person may answer now: open, with an open slot that names them (and that no other
 * candidate has taken), soonest due first (no deadline last), then the longest waiting, then the
 * oldest asked — all of them, or one page. Read by index walks that stop at the page's length
 * (db/queries/open-slot-walks.ts): a page costs about its own length however many questions the
 * person (or a team of theirs) has open.
 */
/** The page of walked rows listAnswerableQuestions reads its questions by (its CTE `page`). */
const paged = walkedRows("page");

export async function listAnswerableQuestions(db: Db, userId: string, page?: QuestionPageRequest): Promise<QuestionRow[]> {
  const after = page?.after ?? null;
  // The place of the question the page follows, read from the question itself (answered since or not); none names no place, so no rows.
  const cursor: WalkCursor | null = after
? CURSOR_PLACE : null;
  const walks = OPEN_PARTS.map((part) =>
    openWalk(part, userId, { where: cursor ? afterCursor("due", cursor) : [], order: "due", limit: page ? page.limit : null, answerableOnly: true }),
  );
  const rows = await queryRows<RawQuestion>(
    db,
    sql`with recursive ${teamSetsCte(userId)}${
      after
        ? sql`, cursor as (
            select ${DUE_ORDER} as due_order, ${s.openedAt} as ${bareName(slots.openedAt)}, ${s.id} as ${bareName(asks.slotId)}, ${a.askedAt} as ${bareName(asks.askedAt)}, ${a.id} as ${bareName(asks.id)}
              from ${asks} ${a} join ${slots} ${s} on ${s.id} = ${a.slotId} where ${a.id} = ${after}::uuid)`
        : sql``
    }, page as (select * from (${sql.join(walks, sql` union all `)}) walked order by ${rowOrder("due")}${page ? sql` limit ${page.limit}` : sql``})
        ${QUESTION_SELECT}
        join page on ${paged.question.id} = ${a.id}
        where ${SERIAL_READ}
        order by ${rowOrder("due", paged)}`,
  );
  return rows.map(toQuestion);
}

/*
 * The write statements' CTEs, named as aliases of the table whose rows they return (`${won.event}`
 * renders `"won"."event"`), so what they read of those rows is named from the schema too.
 */
/** The question a step asked (insertPersonQuestion). */
const asked = alias(asks, "asked");
/** The question whose refused attempt was counted. */
const counted = alias(asks, "counted");
/** The slot closed with nothing (`returning *`), and its question. */
const closedSlot = alias(slots, "slot");
const closed = alias(asks, "closed");
/** The slot an answer finished (`returning *`), and its question. */
const won = alias(slots, "won");
const answered = alias(asks, "answered");

/** What a job a finished or closed slot queues is written with. */
const JOB_COLUMNS = columnList([jobs.kind, jobs.workflowInstanceId, jobs.state, jobs.slotId, jobs.payload, jobs.runAt, jobs.traceContext]);

/** A flow's question to a person, with the slot that takes its answer. */
export interface NewPersonQuestion {
  id: string;
  slotId: string;
  taskId: string;
  workflowInstanceId: string;
  workflow: string;
  state: string;
  event: string;
  stepKey: string | null;
  title: string | null;
  spec: QuestionSpec;
  /** The JSON Schema that judges its answers, when it came with the ask. */
  responseSchema: Record<string, unknown> | null;
  attemptsAllowed: number;
  /** The one person asked, if one; otherwise only the candidates. */
  assigneeId: string | null;
  candidateIds: readonly string[];
  /** Groups whose members are candidates too. */
  candidateGroupIds: readonly string[];
  /** The person it was meant for, who is away and named `assigneeId` as their delegate. */
  delegatedFrom: string | null;
  /** Who asks, when not the flow itself (stored as the slot's asker, `slots.agent`). */
  askedBy: string | null;
  dueAt: Date | null;
  /** The slot's escalation chain, stored with it. */
  escalations?: readonly NewEscalationStep[];
  at: Date;
  /** The tracked task table's status update, made only if the question was created. */
  trackedStatus: (onlyIf: ReturnType<typeof sql>) => ReturnType<typeof sql>;
  events: readonly NewRunEvent[];
}

/**
 * Asks a person (one statement): the question record, its slot (assignee and candidates), the run reading
 * `waiting` and the events — unless this step already asked, in which case nothing is written and
 * the earlier question is returned.
 */
export async function insertPersonQuestion(db: Db, question: NewPersonQuestion): Promise<{ id: string; slotId: string; created: boolean }> {
  const at = question.at.toISOString();
  const created = sql`exists (select 1 from ${asked})`;
  const w = workflowInstances;
  const rows = await queryRows<{ id: string; slot_id: string; created: boolean }>(
    db,
    sql`with ${asked} as (
          insert into ${asks} (${columnList([asks.id, asks.taskId, asks.workflowInstanceId, asks.workflow, asks.event, asks.slotId, asks.stepKey, asks.title, asks.spec, asks.responseSchema, asks.attemptsAllowed, asks.askedAt])})
          select ${question.id}::uuid, ${question.taskId}::uuid, ${question.workflowInstanceId}::uuid, ${question.workflow}, ${question.event},
            ${question.slotId}::uuid, ${question.stepKey}, ${question.title}, ${JSON.stringify(question.spec)}::jsonb,
            ${question.responseSchema === null ? null : JSON.stringify(question.responseSchema)}::json, ${question.attemptsAllowed}::int, ${at}::timestamptz
          -- A run cancelled meanwhile asks nothing more (the lock waits for a cancel under way: db/queries/run-cancels.ts).
          where exists (select 1 from ${w} where ${w.id} = ${question.workflowInstanceId} and ${w.status} <> 'cancelled' for share)
          on conflict (${bareName(asks.stepKey)}) where ${bareName(asks.stepKey)} is not null do nothing
          returning ${asks.id}, ${asks.slotId}
        ), opened as (
          insert into ${slots} (${columnList([slots.id, slots.workflowInstanceId, slots.workflow, slots.taskId, slots.state, slots.event, slots.role, slots.agent, slots.assigneeId, slots.candidateIds, slots.candidateGroupIds, slots.delegatedFrom, slots.openedAt, slots.dueAt])})
          select ${question.slotId}, ${question.workflowInstanceId}, ${question.workflow}, ${question.taskId}, ${question.state},
            ${question.event}, null, ${question.askedBy}, ${question.assigneeId}::uuid, ${`{${question.candidateIds.join(",")}}`}::uuid[],
            ${`{${question.candidateGroupIds.join(",")}}`}::uuid[], ${question.delegatedFrom}::uuid, ${at}::timestamptz, ${question.dueAt?.toISOString() ?? null}::timestamptz
          where ${created}
        ), escalations as (${insertEscalationsSql([{ id: question.slotId, escalations: question.escalations ?? [] }], created)}
        ), instance as (
          update ${w} set ${bareName(w.status)} = 'waiting', ${bareName(w.updatedAt)} = ${at}::timestamptz
          where ${w.id} = ${question.workflowInstanceId} and ${created}
        ), tracked as (${question.trackedStatus(created)}),
        events as (${insertRunEventsSql(question.events, created)})
        select ${asked.id} as id, ${asked.slotId} as slot_id, true as created from ${asked}
        union all
        select ${asks.id} as id, ${asks.slotId} as slot_id, false as created from ${asks} where ${asks.stepKey} = ${question.stepKey} and not ${created}`,
  );
  const row = rows[0];
  if (!row) throw new Error("the question was neither created nor found (was its run cancelled?)");
  return { id: row.id, slotId: row.slot_id, created: Boolean(row.created) };
}

/**
 * Counts one refused submission, only if the question is still open and nobody counted one since
 * `seenAttemptsUsed` was read (one conditional update). Returns the new count, or undefined when
 * the question moved on meanwhile.
 */
export async function countRefusedAttempt(
  db: Db,
  refusal: { questionId: string; seenAttemptsUsed: number; by: string; events: readonly NewRunEvent[] },
): Promise<{ attemptsUsed: number; attemptsAllowed: number } | undefined> {
  const rows = await queryRows<{ attempts_used: number; attempts_allowed: number }>(
    db,
    sql`with ${counted} as (
          update ${asks} set ${bareName(asks.attemptsUsed)} = ${asks.attemptsUsed} + 1
          where ${asks.id} = ${refusal.questionId} and ${asks.status} = 'open' and ${asks.reason} is null and ${asks.attemptsUsed} = ${refusal.seenAttemptsUsed}
          returning ${asks.attemptsUsed}, ${asks.attemptsAllowed}
        ), events as (${insertRunEventsSql(refusal.events, sql`exists (select 1 from ${counted})`)})
        select ${counted.attemptsUsed} as attempts_used, ${counted.attemptsAllowed} as attempts_allowed from ${counted}`,
  );
  const row = rows[0];
  return row ? { attemptsUsed: Number(row.attempts_used), attemptsAllowed: Number(row.attempts_allowed) } : undefined;
}

/**
 * Ends a question with nothing (one statement): the reason is stored (a flow's question is closed
 * at once; an agent's ask is closed when the "no answer" is written as its call's result), its
 * open slot is closed with nobody recorded as answering, and the job that hands the flow its
 * nothing is queued. Does nothing unless the question and its slot are still open.
 */
export async function closeQuestionWithNothing(
  db: Db,
  closing: {
    questionId: string;
    reason: NothingReason;
    /** For `declined`: who declined (a party to the question, checked by the caller) and their note for the asker. */
    declined?: { by: string; note: string | null };
    payload: unknown;
    events: readonly NewRunEvent[];
    at: Date;
  },
): Promise<boolean> {
  const at = closing.at.toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with ${closedSlot} as (
          update ${slots} set ${bareName(slots.status)} = 'closed', ${bareName(slots.finishedAt)} = ${at}::timestamptz,
            ${bareName(slots.waitMs)} = greatest(0, (extract(epoch from (${at}::timestamptz - ${slots.openedAt})) * 1000)::bigint),
            ${bareName(slots.payload)} = ${JSON.stringify(closing.payload)}::jsonb
          where ${slots.id} = (select ${asks.slotId} from ${asks} where ${asks.id} = ${closing.questionId}) and ${slots.status} = 'open'
          returning *
        ), ${closed} as (
          update ${asks} set ${bareName(asks.reason)} = ${closing.reason},
            ${bareName(asks.declinedBy)} = ${closing.declined?.by ?? null}, ${bareName(asks.declineNote)} = ${closing.declined?.note ?? null},
            ${bareName(asks.status)} = case when ${asks.conversationId} is null then 'nothing' else ${asks.status} end,
            ${bareName(asks.answeredAt)} = case when ${asks.conversationId} is null then ${at}::timestamptz else ${asks.answeredAt} end
          where ${asks.id} = ${closing.questionId} and ${asks.status} = 'open' and ${asks.reason} is null and exists (select 1 from ${closedSlot})
          returning ${asks.id}
        ), queued as (
          insert into ${jobs} (${JOB_COLUMNS})
          select 'event', ${closedSlot.workflowInstanceId}, ${closedSlot.state}, ${closedSlot.id},
            jsonb_build_object('event', ${closedSlot.event}, 'payload', ${closedSlot.payload}), ${at}::timestamptz, ${jobTraceContext()}
          from ${closedSlot} where exists (select 1 from ${closed})
        ), events as (${insertRunEventsSql(closing.events, sql`exists (select 1 from ${closed})`)})
        select ${closed.id} as id from ${closed}`,
  );
  return rows.length > 0;
}

/**
 * Takes a person's answer (one statement): the slot is finished only if it is open, not past due
 * and this person may answer it; then the question is marked answered by them (an agent's ask
 * stays open until its call's result is written), the job that runs the flow's handler is queued
 * and the `answered` event appended. Returns false when this caller did not win.
 */
export async function depositAnswer(
  db: Db,
  deposit: { questionId: string; slotId: string; by: string; payload: unknown; answer: unknown; at: Date },
): Promise<boolean> {
  const at = deposit.at.toISOString();
  const rows = await queryRows<{ id: string }>(
    db,
    schemaSql`with ${won} as (
          update ${slots} set ${bareName(slots.status)} = 'finished', ${bareName(slots.finishedBy)} = ${deposit.by}, ${bareName(slots.finishedAt)} = ${at}::timestamptz,
            ${bareName(slots.waitMs)} = greatest(0, (extract(epoch from (${at}::timestamptz - ${slots.openedAt})) * 1000)::bigint),
            ${bareName(slots.payload)} = ${JSON.stringify(deposit.payload)}::jsonb
          where ${slots.id} = ${deposit.slotId} and ${slots.status} = 'open'
            and (${slots.dueAt} is null or ${slots.dueAt} > ${at}::timestamptz)
            and ${slotAnswerableBy("", deposit.by)}
            and exists (select 1 from ${asks} where ${asks.id} = ${deposit.questionId} and ${asks.status} = 'open' and ${asks.reason} is null)
          returning *
        ), ${answered} as (
          update ${asks} set ${bareName(asks.answer)} = ${JSON.stringify(deposit.answer)}::jsonb, ${bareName(asks.answeredBy)} = ${deposit.by},
            ${bareName(asks.status)} = case when ${asks.conversationId} is null then 'answered' else ${asks.status} end,
            ${bareName(asks.answeredAt)} = case when ${asks.conversationId} is null then ${at}::timestamptz else ${asks.answeredAt} end
          where ${asks.id} = ${deposit.questionId} and exists (select 1 from ${won})
          returning ${asks.id}
        ), queued as (
          insert into ${jobs} (${JOB_COLUMNS})
          select 'event', ${won.workflowInstanceId}, ${won.state}, ${won.id}, jsonb_build_object('event', ${won.event}, 'payload', ${won.payload}), ${at}::timestamptz, ${jobTraceContext()}
          from ${won}
        ), events as (
          insert into ${runEvents} (${columnList([runEvents.taskId, runEvents.workflowInstanceId, runEvents.kind, runEvents.data, runEvents.at])})
          select ${won.taskId}, ${won.workflowInstanceId}, 'answered',
            jsonb_build_object('event', ${won.event}, 'slotId', ${won.id}, 'questionId', ${deposit.questionId}::text, 'by', ${won.finishedBy}, 'waitMs', ${won.waitMs}), ${at}::timestamptz
          from ${won}
        )
        select ${answered.id} as id from ${answered}`,
  );
  return rows.length > 0;
}
