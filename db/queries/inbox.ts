import type { ModelMessage } from "ai";
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../client";
import type { RunStatus } from "../schema";

/** A question someone answered (or that closed with nothing while it was theirs), for "Answered by me". */
export interface AnsweredQuestionRow {
  id: string;
  taskId: string;
  agent: string | null;
  workflow: string | null;
  title: string | null;
  question: string;
  status: string;
  reason: string | null;
  askedAt: Date;
  answeredAt: Date | null;
  waitMs: number | null;
}

/** The questions `userId` answered, newest first. */
export async function listAnsweredBy(db: Db, userId: string, limit = 50): Promise<AnsweredQuestionRow[]> {
  const rows = await queryRows<{
    id: string;
    task_id: string;
    agent: string | null;
    workflow: string | null;
    title: string | null;
    question: string | null;
    status: string;
    reason: string | null;
    asked_at: string | Date;
    answered_at: string | Date | null;
    wait_ms: string | number | null;
  }>(
    db,
    sql`select a.id, a.task_id, a.agent, a.workflow, a.title, a.spec #>> '{fields,0,question}' as question, a.status, a.reason,
               a.asked_at, coalesce(a.answered_at, s.finished_at) as answered_at, s.wait_ms
          from asks a left join slots s on s.id = a.slot_id
         where a.answered_by = ${userId} or s.finished_by = ${userId}
         order by coalesce(a.answered_at, s.finished_at) desc nulls last
         limit ${limit}`,
  );
  return rows.map((row) => ({
    id: row.id,
    taskId: row.task_id,
    agent: row.agent,
    workflow: row.workflow,
    title: row.title,
    question: row.question ?? "",
    status: row.status,
    reason: row.reason,
    askedAt: new Date(row.asked_at),
    answeredAt: row.answered_at === null ? null : new Date(row.answered_at),
    waitMs: row.wait_ms === null ? null : Number(row.wait_ms),
  }));
}

/** Where a task's run stands: its workflow's state and status. */
export async function findRunForTask(db: Db, taskId: string): Promise<{ workflow: string; state: string; status: RunStatus } | undefined> {
  const rows = await queryRows<{ workflow: string; state: string; status: RunStatus }>(
    db,
    sql`select workflow, state, status from workflow_instances where task_id = ${taskId} order by created_at limit 1`,
  );
  return rows[0];
}

/** An agent's conversation, in order, as the AI SDK messages it was stored as. */
export async function listConversationMessages(db: Db, conversationId: string): Promise<ModelMessage[]> {
  const rows = await queryRows<{ message: ModelMessage }>(
    db,
    sql`select message from conversation_messages where conversation_id = ${conversationId} order by id`,
  );
  return rows.map((row) => row.message);
}

/**
 * Whether `userId` has a part in a task's questions: asked (assignee or candidate) or answered one.
 * Such a person may watch that task's run carry on after they answered.
 */
export async function hasPartInTask(db: Db, taskId: string, userId: string): Promise<boolean> {
  const rows = await queryRows<{ yes: boolean }>(
    db,
    sql`select exists (
          select 1 from asks a left join slots s on s.id = a.slot_id
           where a.task_id = ${taskId}
             and (a.answered_by = ${userId} or s.assignee_id = ${userId} or s.candidate_ids @> ${`{${userId}}`}::uuid[])
        ) as yes`,
  );
  return Boolean(rows[0]?.yes);
}
