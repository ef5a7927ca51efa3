import type { ModelMessage } from "ai";
import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../client";
import { asks, conversationMessages } from "../schema";
import { a, bareName } from "./read-aliases";

/** A message of the conversation, as the statement names it; the `last` one's place and the ones `shown` (CTEs of messages' columns). */
const m = alias(conversationMessages, "m");
const last = alias(conversationMessages, "last");
const shown = alias(conversationMessages, "shown");

/** The part of an agent's conversation shown beside one of its questions. */
export interface ConversationWindow {
  /** Its first message (the brief the agent was given) when the window does not begin with it. */
  first: ModelMessage | undefined;
  /** How many messages lie between the first and the window, not read. */
  skipped: number;
  /** The window, in order. */
  window: ModelMessage[];
}

/**
 * An agent's conversation as a question's page shows it, read the same way however long it grew: its
 * first message, and at most `limit` messages ending with the answer to the question's ask call (the
 * conversation's latest while the question is unanswered). Each part is a range of
 * `conversation_messages_seq_key`; the answer's place is found by `conversation_messages_tool_result_key`.
 */
export async function readConversationWindow(db: Db, options: { conversationId: string; questionId: string; limit: number }): Promise<ConversationWindow> {
  const { conversationId, questionId, limit } = options;
  const rows = await queryRows<{ seq: number | string; message: ModelMessage | string }>(
    db,
    sql`with ${last} as (
          select coalesce(
            (select ${m.seq} from ${asks} ${a} join ${conversationMessages} ${m} on ${m.conversationId} = ${a.conversationId} and ${m.toolCallId} = ${a.toolCallId}
              where ${a.id} = ${questionId} and ${a.conversationId} = ${conversationId}),
            (select max(${conversationMessages.seq}) from ${conversationMessages} where ${conversationMessages.conversationId} = ${conversationId})) as seq
        ), ${shown} as (
          select ${m.seq} as seq, ${m.message} as message from ${conversationMessages} ${m}, ${last}
           where ${m.conversationId} = ${conversationId} and ${m.seq} <= ${last.seq}
           order by ${m.seq} desc limit ${limit}
        )
        select ${shown.seq} as seq, ${shown.message} as message from ${shown}
        union all
        select ${conversationMessages.seq} as seq, ${conversationMessages.message} as message from ${conversationMessages}
         where ${conversationMessages.conversationId} = ${conversationId} and ${conversationMessages.seq} = 1 and not exists (select 1 from ${shown} where ${shown.seq} = 1)
        order by ${bareName(conversationMessages.seq)}`,
  );
  const messages = rows.map((row) => ({ seq: Number(row.seq), message: typeof row.message === "string" ? (JSON.parse(row.message) as ModelMessage) : row.message }));
  const [head, next] = messages;
  if (!head || !next || head.seq !== 1 || next.seq === 2) return { first: undefined, skipped: 0, window: messages.map((each) => each.message) };
  // Messages are numbered from 1 without gaps (conversations.message_count hands the numbers out).
  return { first: head.message, skipped: next.seq - 2, window: messages.slice(1).map((each) => each.message) };
}
