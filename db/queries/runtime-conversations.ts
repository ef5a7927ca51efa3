import type { ModelMessage } from "ai";
import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../client";
import { DEFAULT_ATTEMPTS } from "../types/attempts";
import type { QuestionSpec } from "../types/question-spec";
import { RELAXED_COMMIT } from "./commit-durability";
import { insertRunEventsSql, type NewRunEvent } from "./runtime-events";

/** One stored message of a conversation. */
export interface StoredMessage {
  /** Its place in the conversation, from 1, in commit order. */
  seq: number;
  message: ModelMessage;
  stepKey: string | null;
}

/** An agent's question still waiting for its answer, as a turn needs it. */
export interface OpenAsk {
  id: string;
  toolCallId: string | null;
  agent: string | null;
  spec: QuestionSpec;
}

/** A conversation as one read found it: the messages after the ones the reader had, and its open asks. */
export interface OpenedConversation {
  conversationId: string;
  /** The messages with `seq` above `afterSeq`, in order. */
  messages: StoredMessage[];
  /** The asks of the conversation that have no answer yet, oldest first. */
  openAsks: OpenAsk[];
}

function parsed<T>(value: T | string): T {
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

/** A row of {@link conversationRowsSql}: the head (the conversation and its open asks), then one per message. */
type ConversationRow = {
  conversation_id: string | null;
  open_asks: OpenAsk[] | string | null;
  seq: number | string | null;
  message: ModelMessage | string | null;
  step_key: string | null;
};

/**
 * The tail of a statement that reads a conversation: a head row with the conversation's id and its
 * open asks, then its messages after `afterSeq` one row each, in order. Rows rather than one JSON
 * aggregate: a long conversation read afresh costs the server a fraction of building one document.
 * `conversation` is a CTE of the statement with the conversation's `id`; `onlyIf` guards the head.
 */
function conversationRowsSql(afterSeq: number, onlyIf: SQL): SQL {
  return sql`select c.id as conversation_id,
      coalesce((select json_agg(json_build_object('id', a.id, 'toolCallId', a.tool_call_id, 'agent', a.agent, 'spec', a.spec)
          order by a.asked_at, a.tool_call_id)
        from asks a where a.conversation_id = c.id and a.status = 'open'), '[]'::json) as open_asks,
      null::bigint as seq, null::jsonb as message, null::text as step_key
    from conversation c where ${onlyIf}
    union all
    select null, null, m.seq, m.message, m.step_key
    from conversation_messages m where m.conversation_id = (select id from conversation) and m.seq > ${afterSeq}
    order by seq nulls first`;
}

/** The conversation a {@link conversationRowsSql} read found, or undefined when there is none. */
function conversationFrom(rows: readonly ConversationRow[]): OpenedConversation | undefined {
  const [head, ...messages] = rows;
  if (!head?.conversation_id) return undefined;
  return {
    conversationId: head.conversation_id,
    messages: messages.map((row) => ({ seq: Number(row.seq), message: parsed(row.message!), stepKey: row.step_key })),
    openAsks: parsed(head.open_asks ?? "[]"),
  };
}

/**
 * Finds or creates an agent's conversation about a task and reads, in one statement, the messages
 * after `afterSeq` (all of them from 0) and its open asks. `events` are appended in the same statement
 * when `eventsUnlessStep` is not already stored (a turn about to start, unless it ran before) — a
 * write nobody outside is told of, so it commits without waiting for the disk.
 */
export async function openConversation(
  db: Db,
  open: { agent: string; taskId: string; afterSeq?: number; events?: readonly NewRunEvent[]; eventsUnlessStep?: string | null },
): Promise<OpenedConversation> {
  const { agent, taskId } = open;
  const afterSeq = open.afterSeq ?? 0;
  const events = open.events ?? [];
  const unlessStep = open.eventsUnlessStep
    ? sql`not exists (select 1 from conversation_messages m, conversation c where m.conversation_id = c.id and m.step_key = ${open.eventsUnlessStep})`
    : sql`true`;
  // A concurrent first insert can leave both branches empty for the loser's snapshot; one retry sees it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const rows = await queryRows<ConversationRow>(
      db,
      sql`with relaxed as (${RELAXED_COMMIT}),
          inserted as (
            insert into conversations (agent, task_id) values (${agent}, ${taskId})
            on conflict (agent, task_id) do nothing returning id
          ), conversation as (
            select id from inserted
            union all
            select id from conversations where agent = ${agent} and task_id = ${taskId}
          ), events as (${insertRunEventsSql(events, sql`exists (select 1 from conversation) and ${unlessStep}`)})
          ${conversationRowsSql(afterSeq, sql`(select relaxed from relaxed) is not null`)}`,
    );
    const opened = conversationFrom(rows);
    if (opened) return opened;
  }
  throw new Error(`could not open the conversation of ${agent} about task ${taskId}`);
}

/** An ask about to be stored with its turn. */
export interface NewAsk {
  id: string;
  toolCallId: string;
  spec: QuestionSpec;
}

/**
 * Appends one model step (the new turns and the model's messages) with the asks it made and its
 * events, in one statement: a step is stored whole or not at all, numbered after the messages
 * already there (under the conversation row's lock, so in commit order); returns the first message's
 * `seq`. It commits without waiting for the disk: if a crash loses it, the job that made it runs again.
 */
export async function appendStep(
  db: Db,
  step: {
    conversationId: string;
    agent: string;
    taskId: string;
    stepKey: string | null;
    messages: readonly ModelMessage[];
    asks: readonly NewAsk[];
    events: readonly NewRunEvent[];
    at: Date;
  },
): Promise<number> {
  const count = step.messages.length;
  const messages = JSON.stringify(step.messages.map((message) => ({ role: message.role, message })));
  const newAsks = JSON.stringify(step.asks.map((ask) => ({ id: ask.id, tool_call_id: ask.toolCallId, spec: ask.spec })));
  const rows = await queryRows<{ base: number }>(
    db,
    sql`with relaxed as (${RELAXED_COMMIT}),
        counter as (
          update conversations set message_count = message_count + ${count}
          where id = ${step.conversationId} and (select relaxed from relaxed) is not null
          returning message_count - ${count} as base
        ), appended as (
          insert into conversation_messages (conversation_id, seq, role, message, step_key)
          select ${step.conversationId}::uuid, counter.base + m.n, m.value->>'role', m.value->'message', ${step.stepKey}
          from jsonb_array_elements(${messages}::jsonb) with ordinality as m(value, n), counter
          order by m.n
          returning id
        ), asked as (
          insert into asks (id, conversation_id, agent, task_id, tool_call_id, spec, attempts_allowed, asked_at)
          select a.id, ${step.conversationId}::uuid, ${step.agent}, ${step.taskId}::uuid, a.tool_call_id, a.spec, ${DEFAULT_ATTEMPTS}, ${step.at.toISOString()}::timestamptz
          from jsonb_to_recordset(${newAsks}::jsonb) as a(id uuid, tool_call_id text, spec jsonb)
          returning id
        ), events as (${insertRunEventsSql(step.events)})
        select base, (select count(*) from appended) as messages from counter`,
  );
  const row = rows[0];
  if (!row) throw new Error(`conversation ${step.conversationId} does not exist`);
  return Number(row.base) + 1;
}

/** The result of an ask call as the runtime writes a person's answer into the conversation. */
export function answerMessage(toolCallId: string, toolName: string, text: string): ModelMessage {
  return { role: "tool", content: [{ type: "tool-result", toolCallId, toolName, output: { type: "text", value: text } }] };
}

/** What {@link recordAnswer} wrote, and the conversation as it found it. */
export interface RecordedAnswer {
  /** The result's `seq`, or null when the ask had its result already (or is not this conversation's open ask). */
  seq: number | null;
  /** The result as written (null when nothing was). */
  message: ModelMessage | null;
  /** The conversation before the result: its messages after `afterSeq` and the asks then open (the answered one among them). */
  conversation: OpenedConversation;
}

/**
 * Writes a person's answer as the result of one open ask of an agent's conversation about a task,
 * and reads the conversation, in one statement: the ask is marked answered (or, when it ended with
 * nothing, closed with its reason — the text then says nobody answered) and the tool result appended
 * as the conversation's next message; `events` are appended with it only when no other ask of the
 * conversation is still open (the run resumes). It writes nothing when the ask already has its
 * result — an answer is never written twice. Like a stored step, it commits without waiting for the
 * disk: the answer itself is safe in the slot it was deposited in. Returns undefined when the
 * conversation does not exist.
 */
export async function recordAnswer(
  db: Db,
  answer: { agent: string; taskId: string; askId: string; toolName: string; text: string; afterSeq: number; events: readonly NewRunEvent[]; at: Date },
): Promise<RecordedAnswer | undefined> {
  const rows = await queryRows<ConversationRow & { answer_seq: number | string | null; tool_call_id: string | null }>(
    db,
    sql`with relaxed as (${RELAXED_COMMIT}),
        conversation as (select id from conversations where agent = ${answer.agent} and task_id = ${answer.taskId}),
        answered as (
          update asks set status = case when reason is null then 'answered' else 'nothing' end,
            answer = case when reason is null then ${JSON.stringify({ text: answer.text })}::jsonb else answer end,
            answered_by = case when reason is null
              then coalesce(answered_by, (select finished_by from slots where slots.id = asks.slot_id)) end,
            answered_at = ${answer.at.toISOString()}::timestamptz
          where id = ${answer.askId} and status = 'open' and conversation_id = (select id from conversation)
            and (select relaxed from relaxed) is not null
          returning id, conversation_id, tool_call_id
        ), counter as (
          update conversations set message_count = message_count + 1
          where id = (select conversation_id from answered)
          returning message_count as seq
        ), result as (
          insert into conversation_messages (conversation_id, seq, role, message, tool_call_id)
          select answered.conversation_id, counter.seq, 'tool',
            jsonb_build_object('role', 'tool', 'content', jsonb_build_array(jsonb_build_object('type', 'tool-result',
              'toolCallId', coalesce(answered.tool_call_id, ''), 'toolName', ${answer.toolName}::text,
              'output', jsonb_build_object('type', 'text', 'value', ${answer.text}::text)))),
            answered.tool_call_id
          from answered, counter
          on conflict do nothing
        ), events as (${insertRunEventsSql(
          answer.events,
          sql`exists (select 1 from answered) and not exists (
            select 1 from asks other where other.conversation_id = (select id from conversation) and other.status = 'open' and other.id <> ${answer.askId})`,
        )})
        select (select seq from counter) as answer_seq, (select tool_call_id from answered) as tool_call_id, rows.*
        from (${conversationRowsSql(answer.afterSeq, sql`true`)}) rows
        order by rows.seq nulls first`,
  );
  const conversation = conversationFrom(rows);
  if (!conversation) return undefined;
  const head = rows[0]!;
  const seq = head.answer_seq === null ? null : Number(head.answer_seq);
  return { seq, message: seq === null ? null : answerMessage(head.tool_call_id ?? "", answer.toolName, answer.text), conversation };
}
