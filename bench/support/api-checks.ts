import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/db/client";

/** An answer the API said it took (200 `answered`): to which question, as whom, with what text. */
export interface TakenAnswer {
  questionId: string;
  userId: string;
  text: string;
}

/** What the database says about the API asks that were answered, counted once the runs drained. */
export interface ApiExactlyOnce {
  /** Questions answers were sent to. */
  questions: number;
  /** Replies 200 `answered`. */
  taken: number;
  /** Questions with more than one 200 (must be 0). */
  takenTwice: number;
  /** Questions answers were sent to that got no 200 at all (must be 0). */
  takenNever: number;
  /** 200s the database does not show as that person's answer with that text (must be 0). */
  lost: number;
  /** Questions `answered` in the database without a 200 (must be 0). */
  answeredWithoutReply: number;
  questionsAnswered: number;
  slotsFinished: number;
  /** Questions with exactly one `answered` run event / one event job (done) / whose ApiAsk run ended in Answered. */
  oneAnsweredEvent: number;
  oneEventJob: number;
  eventJobsDone: number;
  runsAnswered: number;
  /** Questions with two or more of any of those (must be 0). */
  doubled: number;
  /** Jobs anywhere still queued, running or failed (must be 0 once drained). */
  jobsLeft: number;
}

/** Counts, in the database, that every answer the API took was recorded once, as that person's, and nothing else was. */
export async function countApiExactlyOnce(db: Db, input: { questionIds: readonly string[]; taken: readonly TakenAnswer[] }): Promise<ApiExactlyOnce> {
  const ids = sql`${`{${input.questionIds.join(",")}}`}::uuid[]`;
  const rows = await queryRows<{
    id: string;
    status: string;
    answered_by: string | null;
    text: string | null;
    slot_status: string | null;
    finished_by: string | null;
    answered_events: number;
    event_jobs: number;
    event_jobs_done: number;
    run_state: string | null;
    run_status: string | null;
  }>(
    db,
    sql`select a.id, a.status, a.answered_by, a.answer->>'answer' as text, s.status as slot_status, s.finished_by,
          (select count(*)::int from run_events e where e.task_id = a.task_id and e.kind = 'answered') as answered_events,
          (select count(*)::int from jobs j where j.slot_id = a.slot_id and j.kind = 'event') as event_jobs,
          (select count(*)::int from jobs j where j.slot_id = a.slot_id and j.kind = 'event' and j.status = 'done') as event_jobs_done,
          wi.state as run_state, wi.status as run_status
        from asks a
        left join slots s on s.id = a.slot_id
        left join workflow_instances wi on wi.id = a.workflow_instance_id
        where a.id = any(${ids})`,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const takenBy = new Map<string, TakenAnswer[]>();
  for (const answer of input.taken) takenBy.set(answer.questionId, [...(takenBy.get(answer.questionId) ?? []), answer]);
  let lost = 0;
  for (const answer of input.taken) {
    const row = byId.get(answer.questionId);
    if (!row || row.status !== "answered" || row.answered_by !== answer.userId || row.finished_by !== answer.userId || row.text !== answer.text) lost += 1;
  }
  const [left] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from jobs where status in ('queued', 'running', 'failed')`);
  const count = (predicate: (row: (typeof rows)[number]) => boolean) => rows.filter(predicate).length;
  return {
    questions: input.questionIds.length,
    taken: input.taken.length,
    takenTwice: [...takenBy.values()].filter((answers) => answers.length > 1).length,
    takenNever: input.questionIds.filter((id) => !takenBy.has(id)).length,
    lost,
    answeredWithoutReply: count((row) => row.status === "answered" && !takenBy.has(row.id)),
    questionsAnswered: count((row) => row.status === "answered"),
    slotsFinished: count((row) => row.slot_status === "finished"),
    oneAnsweredEvent: count((row) => Number(row.answered_events) === 1),
    oneEventJob: count((row) => Number(row.event_jobs) === 1),
    eventJobsDone: rows.reduce((sum, row) => sum + Number(row.event_jobs_done), 0),
    runsAnswered: count((row) => row.run_state === "Answered" && row.run_status === "completed"),
    doubled: count((row) => Number(row.answered_events) > 1 || Number(row.event_jobs) > 1),
    jobsLeft: Number(left?.count ?? 0),
  };
}

/** The asks one agent key made, counted: rows, distinct idempotency keys, and how many have their question. */
export async function countApiAsks(db: Db, apiKeyId: string): Promise<{ asks: number; distinctKeys: number; withQuestion: number }> {
  const [row] = await queryRows<{ asks: number; distinct_keys: number; with_question: number }>(
    db,
    sql`select count(*)::int as asks, count(distinct aa.idempotency_key)::int as distinct_keys, count(a.id)::int as with_question
        from api_asks aa left join asks a on a.id = aa.question_id
        where aa.api_key_id = ${apiKeyId}`,
  );
  return { asks: Number(row?.asks ?? 0), distinctKeys: Number(row?.distinct_keys ?? 0), withQuestion: Number(row?.with_question ?? 0) };
}
