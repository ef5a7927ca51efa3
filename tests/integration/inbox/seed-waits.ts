import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/** One question and the slot that takes its answer, as a test seeds them (times relative to `at`). */
export interface SeededWait {
  /** The slot's assignee (null: only candidates). */
  assignee: string | null;
  candidates: string[];
  /** Slot status; `open` unless said otherwise. */
  slotStatus?: "open" | "finished" | "expired" | "closed";
  /** Question status; `open` unless said otherwise. */
  status?: "open" | "answered" | "nothing";
  reason?: "refused" | "away" | "non-interactive" | "expired" | null;
  /** An agent's ask (with a conversation) or, when null, a flow's questionnaire. */
  agent?: string | null;
  workflow?: string;
  title?: string | null;
  question?: string;
  askedAgoMs: number;
  /** When the slot opened; the question's asked time unless said otherwise. */
  openedAgoMs?: number;
  /** Null: no deadline. */
  dueInMs: number | null;
  finishedBy?: string | null;
  finishedAgoMs?: number | null;
  answeredBy?: string | null;
  answeredAgoMs?: number | null;
  /** Seed a slot with no question at all. */
  withoutQuestion?: boolean;
}

/** What was seeded: the question's id (null without one) and its slot's. */
export interface SeededIds {
  questionId: string | null;
  slotId: string;
  taskId: string;
}

function ago(at: Date, ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(at.getTime() - ms).toISOString();
}

/** Writes the rows the runtime would have written for each wait (instance, slot, conversation, question), in order. */
export async function seedWaits(db: Db, at: Date, waits: readonly SeededWait[]): Promise<SeededIds[]> {
  const ids: SeededIds[] = [];
  for (const wait of waits) {
    const taskId = randomUUID();
    const instanceId = randomUUID();
    const slotId = randomUUID();
    const workflow = wait.workflow ?? "ReviewClaim";
    const agent = wait.agent === undefined ? "Auditor" : wait.agent;
    const slotStatus = wait.slotStatus ?? "open";
    const openedAt = ago(at, wait.openedAgoMs ?? wait.askedAgoMs)!;
    const dueAt = wait.dueInMs === null ? null : new Date(at.getTime() + wait.dueInMs).toISOString();
    const finishedAt = ago(at, wait.finishedAgoMs);
    await db.execute(sql`insert into workflow_instances (id, workflow, task_id, state, status) values (${instanceId}, ${workflow}, ${taskId}, 'Waiting', 'waiting')`);
    await db.execute(
      sql`insert into slots (id, workflow_instance_id, workflow, task_id, state, event, assignee_id, candidate_ids, status, opened_at, due_at, finished_by, finished_at, wait_ms, agent)
          values (${slotId}, ${instanceId}, ${workflow}, ${taskId}, 'Waiting', 'Answered', ${wait.assignee}, ${`{${wait.candidates.join(",")}}`}::uuid[],
            ${slotStatus}, ${openedAt}::timestamptz, ${dueAt}::timestamptz, ${wait.finishedBy ?? null}, ${finishedAt}::timestamptz,
            ${finishedAt ? Date.parse(finishedAt) - Date.parse(openedAt) : null}, ${wait.withoutQuestion ? null : agent})`,
    );
    if (wait.withoutQuestion) {
      ids.push({ questionId: null, slotId, taskId });
      continue;
    }
    const questionId = randomUUID();
    let conversationId: string | null = null;
    if (agent) {
      conversationId = randomUUID();
      await db.execute(sql`insert into conversations (id, agent, task_id) values (${conversationId}, ${agent}, ${taskId})`);
    }
    const text = wait.question ?? "What was this charge for?";
    const spec = { version: 1, fields: [{ path: "answer", name: "answer", question: text, kind: "text", optional: false, nullable: false, hasDefault: false, hints: {} }], groups: [], crossFieldChecks: false };
    await db.execute(
      sql`insert into asks (id, conversation_id, agent, task_id, tool_call_id, workflow_instance_id, workflow, event, slot_id, title, spec, status, reason,
                            answered_by, asked_at, answered_at)
          values (${questionId}, ${conversationId}, ${agent}, ${taskId}, ${agent ? "call-2-0" : null}, ${instanceId}, ${workflow}, 'Answered', ${slotId},
            ${wait.title ?? null}, ${JSON.stringify(spec)}::jsonb, ${wait.status ?? "open"}, ${wait.reason ?? null},
            ${wait.answeredBy ?? null}, ${ago(at, wait.askedAgoMs)}::timestamptz, ${ago(at, wait.answeredAgoMs)}::timestamptz)`,
    );
    ids.push({ questionId, slotId, taskId });
  }
  return ids;
}
