import type { ModelMessage } from "ai";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { type Db, queryRows } from "../client";
import { DEFAULT_ATTEMPTS } from "../../lib/questions/attempts";
import type { QuestionSpec } from "../../lib/questions/question-spec";
import { type Ask, asks } from "../schema";
import { insertRunEventsSql, type NewRunEvent } from "./runtime-events";

/** One stored message of a conversation. */
export interface StoredMessage {
  id: number;
  message: ModelMessage;
  stepKey: string | null;
}

/** Finds or creates an agent's conversation about a task and reads its messages, in one statement. */
export async function openConversation(
  db: Db,
  agent: string,
  taskId: string,
): Promise<{ conversationId: string; messages: StoredMessage[] }> {
  // A concurrent first insert can leave both branches empty for the loser's snapshot; one retry sees it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const rows = await queryRows<{ conversation_id: string; id: number | null; message: ModelMessage | null; step_key: string | null }>(
      db,
      sql`with inserted as (
            insert into conversations (agent, task_id) values (${agent}, ${taskId})
            on conflict (agent, task_id) do nothing returning id
          ), conversation as (
            select id from inserted
            union all
            select id from conversations where agent = ${agent} and task_id = ${taskId}
          )
          select c.id as conversation_id, m.id::float8 as id, m.message, m.step_key
          from conversation c left join conversation_messages m on m.conversation_id = c.id
          order by m.id`,
    );
    const first = rows[0];
    if (!first) continue;
    const messages = rows
      .filter((row) => row.id !== null)
      .map((row) => ({ id: Number(row.id), message: row.message as ModelMessage, stepKey: row.step_key }));
    return { conversationId: first.conversation_id, messages };
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
 * events, in one statement: a step is stored whole or not at all.
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
): Promise<void> {
  const messages = JSON.stringify(step.messages.map((message) => ({ role: message.role, message })));
  const newAsks = JSON.stringify(step.asks.map((ask) => ({ id: ask.id, tool_call_id: ask.toolCallId, spec: ask.spec })));
  await db.execute(
    sql`with appended as (
          insert into conversation_messages (conversation_id, role, message, step_key)
          select ${step.conversationId}::uuid, m.value->>'role', m.value->'message', ${step.stepKey}
          from jsonb_array_elements(${messages}::jsonb) with ordinality as m(value, n)
          order by m.n
          returning id
        ), asked as (
          insert into asks (id, conversation_id, agent, task_id, tool_call_id, spec, attempts_allowed, asked_at)
          select a.id, ${step.conversationId}::uuid, ${step.agent}, ${step.taskId}::uuid, a.tool_call_id, a.spec, ${DEFAULT_ATTEMPTS}, ${step.at.toISOString()}::timestamptz
          from jsonb_to_recordset(${newAsks}::jsonb) as a(id uuid, tool_call_id text, spec jsonb)
          returning id
        ), events as (${insertRunEventsSql(step.events)})
        select (select count(*) from appended) as messages`,
  );
}

/** The asks of a conversation that have no answer yet, oldest first. */
export async function listOpenAsks(db: Db, conversationId: string): Promise<Ask[]> {
  return db
    .select()
    .from(asks)
    .where(and(eq(asks.conversationId, conversationId), eq(asks.status, "open")))
    .orderBy(asc(asks.askedAt), asc(asks.toolCallId));
}

/** Asks by their tool call ids. */
export async function findAsksByToolCallIds(db: Db, conversationId: string, toolCallIds: string[]): Promise<Ask[]> {
  if (toolCallIds.length === 0) return [];
  return db
    .select()
    .from(asks)
    .where(and(eq(asks.conversationId, conversationId), inArray(asks.toolCallId, toolCallIds)));
}

/**
 * Writes a person's answer as the result of one open ask: the ask is marked answered (or, when it
 * ended with nothing, closed with its reason — the text then says nobody answered) and the tool
 * result appended, in one statement that does nothing when the ask already has its result — an
 * answer is never written twice. Returns whether it wrote.
 */
export async function recordAnswer(
  db: Db,
  answer: { askId: string; text: string; message: ModelMessage; events: readonly NewRunEvent[]; at: Date },
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with answered as (
          update asks set status = case when reason is null then 'answered' else 'nothing' end,
            answer = case when reason is null then ${JSON.stringify({ text: answer.text })}::jsonb else answer end,
            answered_by = case when reason is null
              then coalesce(answered_by, (select finished_by from slots where slots.id = asks.slot_id)) end,
            answered_at = ${answer.at.toISOString()}::timestamptz
          where id = ${answer.askId} and status = 'open'
          returning id, conversation_id, tool_call_id
        ), result as (
          insert into conversation_messages (conversation_id, role, message, tool_call_id)
          select conversation_id, 'tool', ${JSON.stringify(answer.message)}::jsonb, tool_call_id from answered
          on conflict do nothing
        ), events as (${insertRunEventsSql(answer.events, sql`exists (select 1 from answered)`)})
        select id from answered`,
  );
  return rows.length > 0;
}

/** How many of a task's asks (by any agent) have no answer yet. */
export async function countOpenAsks(db: Db, taskId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(asks)
    .where(and(eq(asks.taskId, taskId), eq(asks.status, "open")));
  return Number(row?.count ?? 0);
}
