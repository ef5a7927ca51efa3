import type postgres from "postgres";
import { expect } from "vitest";
import type { Submission } from "./answering-clients";

/** Counts the rows of a query. */
export async function countRows(sql: postgres.Sql, query: string): Promise<number> {
  return Number((await sql.unsafe<{ n: number }[]>(`select count(*)::int as n from (${query}) q`))[0]?.n);
}

/** Whether every review has ended and no job is left to run. */
export async function everyReviewDone(sql: postgres.Sql): Promise<boolean> {
  return (await countRows(sql, "select 1 from review_tasks where status <> 'completed'")) === 0 && (await countRows(sql, "select 1 from jobs where status <> 'done'")) === 0;
}

/** What the checks found, for the test's summary line. */
export interface ReviewTally {
  reviews: number;
  questions: number;
  acknowledged: number;
  inFlight: number;
  inFlightTaken: number;
  conflicts: number;
  jobsTakenOver: number;
}

/**
 * The invariants of a fault run over demo reviews whose every question was answered by
 * {@link startAnsweringClients}, checked in the database once everything has drained:
 * - every question answered exactly once, through its slot, with an answer a client sent for it;
 * - every answer the server acknowledged is the one recorded, and no question was acknowledged twice;
 * - one tool result per ask call, carrying the answer recorded for that question, and no model step
 *   stored twice (the Auditor asked once and decided once in every review);
 * - every run completed once, with nothing queued, held or failed.
 */
export async function expectAnswersOnceAndRunsDone(sql: postgres.Sql, submissions: readonly Submission[], context: string): Promise<ReviewTally> {
  const byOutcome = (outcome: Submission["outcome"]) => submissions.filter((each) => each.outcome === outcome);

  expect(await countRows(sql, "select 1 from asks where status <> 'answered' or answer is null or answered_by is null"), context).toBe(0);
  expect(await countRows(sql, "select 1 from asks a left join slots s on s.id = a.slot_id where s.status is distinct from 'finished'"), context).toBe(0);
  expect(await countRows(sql, "select 1 from slots where status = 'open'"), context).toBe(0);
  const answers = new Map((await sql<{ id: string; answer: string }[]>`select id, answer::text as answer from asks`).map((row) => [row.id, row.answer]));

  const acknowledged = byOutcome("answered");
  expect(acknowledged.filter((each) => !answers.get(each.questionId)?.includes(each.token)), `acknowledged answers not recorded (${context})`).toEqual([]);
  const acknowledgedQuestions = acknowledged.map((each) => each.questionId);
  expect(acknowledgedQuestions.filter((id, index) => acknowledgedQuestions.indexOf(id) !== index), `questions acknowledged twice (${context})`).toEqual([]);
  const sent = new Map<string, string[]>();
  for (const each of submissions) sent.set(each.questionId, [...(sent.get(each.questionId) ?? []), each.token]);
  expect([...answers].filter(([id, answer]) => !(sent.get(id) ?? []).some((token) => answer.includes(token))), `answers nobody sent (${context})`).toEqual([]);
  const inFlight = byOutcome("unknown");

  expect(await countRows(sql, "select 1 from conversation_messages where tool_call_id is not null group by conversation_id, tool_call_id having count(*) > 1"), context).toBe(0);
  const results = await sql<{ answer: string; result: string | null }[]>`
    select a.answer::text as answer, (select string_agg(m.message::text, '') from conversation_messages m
      where m.conversation_id = a.conversation_id and m.tool_call_id = a.tool_call_id) as result
    from asks a where a.tool_call_id is not null`;
  const mismatched = results.filter((row) => {
    const token = /t\d+x[0-9a-z]+/.exec(row.answer)?.[0];
    return !token || !row.result?.includes(token);
  });
  expect(mismatched, `tool results that are not the recorded answer (${context})`).toEqual([]);
  expect(
    await countRows(sql, "select 1 from conversations c where (select count(*) from conversation_messages m where m.conversation_id = c.id and m.role = 'assistant') <> 2"),
    `conversations with a model step missing or stored twice (${context})`,
  ).toBe(0);

  const reviews = await countRows(sql, "select 1 from review_tasks");
  expect(await countRows(sql, "select 1 from review_tasks where status <> 'completed' or decision <> 'approved' or reimbursement is null"), context).toBe(0);
  expect(await countRows(sql, "select 1 from workflow_instances where status <> 'completed'"), context).toBe(0);
  expect(await countRows(sql, "select 1 from jobs where status <> 'done'"), context).toBe(0);
  expect(await countRows(sql, "select 1 from run_events where kind = 'completed'"), context).toBe(reviews);
  expect(await countRows(sql, "select task_id from run_events where kind = 'completed' group by task_id having count(*) <> 1"), context).toBe(0);
  expect(await countRows(sql, "select task_id from run_events where kind = 'question-asked' and data->>'title' = 'Reimbursement' group by task_id having count(*) <> 1"), context).toBe(0);

  return {
    reviews,
    questions: answers.size,
    acknowledged: acknowledged.length,
    inFlight: inFlight.length,
    inFlightTaken: inFlight.filter((each) => answers.get(each.questionId)?.includes(each.token)).length,
    conflicts: byOutcome("conflict").length,
    jobsTakenOver: await countRows(sql, "select 1 from jobs where attempts > 1"),
  };
}
