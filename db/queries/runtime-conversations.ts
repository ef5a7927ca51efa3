import type { ModelMessage } from "ai";
import type { SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../client";
import { asks, conversationMessages, conversations, slots } from "../schema";
import { DEFAULT_ATTEMPTS } from "../types/attempts";
import type { QuestionSpec } from "../types/question-spec";
import { RELAXED_COMMIT } from "./commit-durability";
import { a, bareName, columnList } from "./read-aliases";
import { insertRunEventsSql, type NewRunEvent } from "./runtime-events";
import { schemaSql } from "./statement-parts";

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

/**
 * The statements' names: the conversation found or made (a CTE of conversations' rows) and `c` over it,
 * the one just `inserted`, its messages `m`, an `answered` ask and the conversation's `other` asks,
 * the `counter` that numbers the next message (its `seq`) and the `rows` a read returns (a message's
 * columns, after the head's) — aliases of their tables, so what they read is named from the schema.
 * A stored step's new asks are `a`.
 */
const conversation = alias(conversations, "conversation");
const c = alias(conversations, "c");
const inserted = alias(conversations, "inserted");
const m = alias(conversationMessages, "m");
const answered = alias(asks, "answered");
const other = alias(asks, "other");
const counter = alias(conversationMessages, "counter");
const read = alias(conversationMessages, "rows");

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
  return schemaSql`select ${c.id} as conversation_id,
      coalesce((select json_agg(json_build_object('id', ${a.id}, 'toolCallId', ${a.toolCallId}, 'agent', ${a.agent}, 'spec', ${a.spec})
          order by ${a.askedAt}, ${a.toolCallId})
        from ${asks} ${a} where ${a.conversationId} = ${c.id} and ${a.status} = 'open'), '[]'::json) as open_asks,
      null::bigint as seq, null::jsonb as message, null::text as step_key
    from ${conversation} ${c} where ${onlyIf}
    union all
    select null, null, ${m.seq}, ${m.message}, ${m.stepKey}
    from ${conversationMessages} ${m} where ${m.conversationId} = (select ${conversation.id} from ${conversation}) and ${m.seq} > ${afterSeq}
    order by ${bareName(conversationMessages.seq)} nulls first`;
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
    ? schemaSql`not exists (select 1 from ${conversationMessages} ${m}, ${conversation} ${c} where ${m.conversationId} = ${c.id} and ${m.stepKey} = ${open.eventsUnlessStep})`
    : schemaSql`true`;
  // A concurrent first insert can leave both branches empty for the loser's snapshot; one retry sees it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const rows = await queryRows<ConversationRow>(
      db,
      schemaSql`with relaxed as (${RELAXED_COMMIT}),
          ${inserted} as (
            insert into ${conversations} (${columnList([conversations.agent, conversations.taskId])}) values (${agent}, ${taskId})
            on conflict (${columnList([conversations.agent, conversations.taskId])}) do nothing returning ${conversations.id}
          ), ${conversation} as (
            select ${inserted.id} from ${inserted}
            union all
            select ${conversations.id} from ${conversations} where ${conversations.agent} = ${agent} and ${conversations.taskId} = ${taskId}
          ), events as (${insertRunEventsSql(events, schemaSql`exists (select 1 from ${conversation}) and ${unlessStep}`)})
          ${conversationRowsSql(afterSeq, schemaSql`(select relaxed from relaxed) is not null`)}`,
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
  const newAsks = JSON.stringify(step.asks.map((ask) => ({ [asks.id.name]: ask.id, [asks.toolCallId.name]: ask.toolCallId, [asks.spec.name]: ask.spec })));
  const rows = await queryRows<{ base: number }>(
    db,
    schemaSql`with relaxed as (${RELAXED_COMMIT}),
        counter as (
          update ${conversations} set ${bareName(conversations.messageCount)} = ${conversations.messageCount} + ${count}
          where ${conversations.id} = ${step.conversationId} and (select relaxed from relaxed) is not null
          returning ${conversations.messageCount} - ${count} as base
        ), appended as (
          insert into ${conversationMessages} (${columnList([conversationMessages.conversationId, conversationMessages.seq, conversationMessages.role, conversationMessages.message, conversationMessages.stepKey])})
          select ${step.conversationId}::uuid, counter.base + m.n, m.value->>'role', m.value->'message', ${step.stepKey}
          from jsonb_array_elements(${messages}::jsonb) with ordinality as m(value, n), counter
          order by m.n
          returning ${conversationMessages.id}
        ), asked as (
          insert into ${asks} (${columnList([asks.id, asks.conversationId, asks.agent, asks.taskId, asks.toolCallId, asks.spec, asks.attemptsAllowed, asks.askedAt])})
          select ${a.id}, ${step.conversationId}::uuid, ${step.agent}, ${step.taskId}::uuid, ${a.toolCallId}, ${a.spec}, ${DEFAULT_ATTEMPTS}, ${step.at.toISOString()}::timestamptz
          from jsonb_to_recordset(${newAsks}::jsonb) as ${a}(${bareName(asks.id)} uuid, ${bareName(asks.toolCallId)} text, ${bareName(asks.spec)} jsonb)
          returning ${asks.id}
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
    schemaSql`with relaxed as (${RELAXED_COMMIT}),
        ${conversation} as (select ${conversations.id} from ${conversations} where ${conversations.agent} = ${answer.agent} and ${conversations.taskId} = ${answer.taskId}),
        ${answered} as (
          update ${asks} set ${bareName(asks.status)} = case when ${asks.reason} is null then 'answered' else 'nothing' end,
            ${bareName(asks.answer)} = case when ${asks.reason} is null then ${JSON.stringify({ text: answer.text })}::jsonb else ${asks.answer} end,
            ${bareName(asks.answeredBy)} = case when ${asks.reason} is null
              then coalesce(${asks.answeredBy}, (select ${slots.finishedBy} from ${slots} where ${slots.id} = ${asks.slotId})) end,
            ${bareName(asks.answeredAt)} = ${answer.at.toISOString()}::timestamptz
          where ${asks.id} = ${answer.askId} and ${asks.status} = 'open' and ${asks.conversationId} = (select ${conversation.id} from ${conversation})
            and (select relaxed from relaxed) is not null
          returning ${asks.id}, ${asks.conversationId}, ${asks.toolCallId}
        ), ${counter} as (
          update ${conversations} set ${bareName(conversations.messageCount)} = ${conversations.messageCount} + 1
          where ${conversations.id} = (select ${answered.conversationId} from ${answered})
          returning ${conversations.messageCount} as seq
        ), result as (
          insert into ${conversationMessages} (${columnList([conversationMessages.conversationId, conversationMessages.seq, conversationMessages.role, conversationMessages.message, conversationMessages.toolCallId])})
          select ${answered.conversationId}, ${counter.seq}, 'tool',
            jsonb_build_object('role', 'tool', 'content', jsonb_build_array(jsonb_build_object('type', 'tool-result',
              'toolCallId', coalesce(${answered.toolCallId}, ''), 'toolName', ${answer.toolName}::text,
              'output', jsonb_build_object('type', 'text', 'value', ${answer.text}::text)))),
            ${answered.toolCallId}
          from ${answered}, ${counter}
          on conflict do nothing
        ), events as (${insertRunEventsSql(
          answer.events,
          schemaSql`exists (select 1 from ${answered}) and not exists (
            select 1 from ${asks} ${other} where ${other.conversationId} = (select ${conversation.id} from ${conversation}) and ${other.status} = 'open' and ${other.id} <> ${answer.askId})`,
        )})
        select (select ${counter.seq} from ${counter}) as answer_seq, (select ${answered.toolCallId} from ${answered}) as tool_call_id, ${read}.*
        from (${conversationRowsSql(answer.afterSeq, schemaSql`true`)}) ${read}
        order by ${read.seq} nulls first`,
  );
  const opened = conversationFrom(rows);
  if (!opened) return undefined;
  const head = rows[0]!;
  const seq = head.answer_seq === null ? null : Number(head.answer_seq);
  return { seq, message: seq === null ? null : answerMessage(head.tool_call_id ?? "", answer.toolName, answer.text), conversation: opened };
}
