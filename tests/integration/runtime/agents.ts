import { randomUUID } from "node:crypto";
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "@/db/client";
import { conversationMessages, conversations } from "@/db/schema";
import { createScriptedModel, type ScriptedReply, type ScriptedResponder } from "@/lib/models/scripted-model";
import { defineAgent } from "@/lib/runtime";
import { FileTask } from "./fixture-workflow";

/** A persistent agent that runs in a loop (so it may ask), on a model scripted by `respond`. */
export function loopAgent(respond: ScriptedResponder, overrides: { name?: string } = {}) {
  const model = createScriptedModel({ respond });
  const agent = defineAgent({ name: "Clerk", prompt: "You file things.", memory: "persistent", loop: () => FileTask, model, ...overrides });
  return { agent, model };
}

/** A reply that asks one question. */
export function askReply(question: string, options?: string[]): ScriptedReply {
  return { toolCalls: [{ toolName: "ask", input: options ? { question, options } : { question } }] };
}

/** A task id with nothing behind it: agents called directly need only an id. */
export function newTask() {
  return { id: randomUUID() };
}

/** How many tool results a prompt carries. */
export function toolResults(prompt: LanguageModelV3Prompt) {
  return prompt.flatMap((message) => (message.role === "tool" ? message.content : []));
}

/** A task's stored conversation messages for an agent, oldest first. */
export async function storedMessages(db: Db, agent: string, taskId: string) {
  const rows = await db
    .select({ role: conversationMessages.role, message: conversationMessages.message, toolCallId: conversationMessages.toolCallId })
    .from(conversationMessages)
    .innerJoin(conversations, eq(conversations.id, conversationMessages.conversationId))
    .where(sql`${conversations.agent} = ${agent} and ${conversations.taskId} = ${taskId}`)
    .orderBy(conversationMessages.id);
  return rows;
}

/** Counts rows of a table matching a condition. */
export async function countRows(db: Db, table: string, where = "true"): Promise<number> {
  const [row] = await queryRows<{ count: number }>(db, sql.raw(`select count(*)::int as count from ${table} where ${where}`));
  return Number(row?.count ?? 0);
}
