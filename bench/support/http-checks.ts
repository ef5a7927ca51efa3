import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/db/client";

/** An answer the server said it took (HTTP 200, outcome `answered`), by whom. */
export interface AcceptedAnswer {
  questionId: string;
  userId: string;
}

/** What the database says about the answered questions, counted after the runs drained. */
export interface ExactlyOnceCounts {
  /** Questions the load sent answers to. */
  questions: number;
  /** …of which the Auditor's asks (their runs resume) and Reimbursement questionnaires. */
  agentAsks: number;
  questionnaires: number;
  /** Answers the server accepted (200, `answered`). */
  accepted: number;
  /** Questions more than one request was accepted for (must be 0). */
  acceptedTwice: number;
  /** Accepted answers the database does not show as that person's answer (must be 0). */
  lost: number;
  /** Questions answered in the database with no accepted reply (a reply lost on the way; must be 0). */
  answeredWithoutReply: number;
  /** Questions whose status is `answered` / whose slot is `finished`. */
  questionsAnswered: number;
  slotsFinished: number;
  /** Questions with exactly one `answered` event / one event job / (agent asks) one tool result / one `resumed` event. */
  oneAnsweredEvent: number;
  oneEventJob: number;
  oneToolResult: number;
  oneResumed: number;
  /** Questions with more than one of any of those (must be 0). */
  doubled: number;
  /** Event jobs of these questions that are done. */
  eventJobsDone: number;
  /** Jobs anywhere still queued, running or failed (must be 0 once drained). */
  jobsLeft: number;
  /** The answered runs' states afterwards: agent asks → Reimbursing (waiting on the questionnaire), questionnaires → Completed. */
  agentRunsMovedOn: number;
  questionnaireRunsCompleted: number;
}

/** Counts, in the database, that every accepted answer was taken exactly once and every run resumed once. */
export async function countExactlyOnce(db: Db, input: { agentAsks: readonly string[]; questionnaires: readonly string[]; accepted: readonly AcceptedAnswer[] }): Promise<ExactlyOnceCounts> {
  const all = [...input.agentAsks, ...input.questionnaires];
  const ids = sql`${`{${all.join(",")}}`}::uuid[]`;
  const rows = await queryRows<{
    id: string;
    agent_ask: boolean;
    status: string;
    answered_by: string | null;
    slot_status: string | null;
    finished_by: string | null;
    answered_events: number;
    event_jobs: number;
    event_jobs_done: number;
    tool_results: number;
    resumed: number;
    run_state: string | null;
    run_status: string | null;
  }>(
    db,
    sql`select a.id, a.conversation_id is not null as agent_ask, a.status, a.answered_by, s.status as slot_status, s.finished_by,
          (select count(*)::int from run_events e where e.task_id = a.task_id and e.kind = 'answered' and e.data->>'questionId' = a.id::text) as answered_events,
          (select count(*)::int from jobs j where j.slot_id = a.slot_id and j.kind = 'event') as event_jobs,
          (select count(*)::int from jobs j where j.slot_id = a.slot_id and j.kind = 'event' and j.status = 'done') as event_jobs_done,
          (select count(*)::int from conversation_messages m where m.conversation_id = a.conversation_id and m.tool_call_id = a.tool_call_id) as tool_results,
          (select count(*)::int from run_events e where e.task_id = a.task_id and e.kind = 'resumed' and e.data->>'questionId' = a.id::text) as resumed,
          wi.state as run_state, wi.status as run_status
        from asks a
        left join slots s on s.id = a.slot_id
        left join workflow_instances wi on wi.id = a.workflow_instance_id
        where a.id = any(${ids})`,
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const acceptedBy = new Map<string, string[]>();
  for (const answer of input.accepted) acceptedBy.set(answer.questionId, [...(acceptedBy.get(answer.questionId) ?? []), answer.userId]);

  let lost = 0;
  for (const answer of input.accepted) {
    const row = byId.get(answer.questionId);
    if (!row || row.status !== "answered" || row.answered_by !== answer.userId || row.finished_by !== answer.userId) lost += 1;
  }
  const agentSet = new Set(input.agentAsks);
  const [left] = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from jobs where status in ('queued', 'running', 'failed')`);
  const count = (predicate: (row: (typeof rows)[number]) => boolean) => rows.filter(predicate).length;
  return {
    questions: all.length,
    agentAsks: input.agentAsks.length,
    questionnaires: input.questionnaires.length,
    accepted: input.accepted.length,
    acceptedTwice: [...acceptedBy.values()].filter((people) => people.length > 1).length,
    lost,
    answeredWithoutReply: count((row) => row.status === "answered" && !acceptedBy.has(row.id)),
    questionsAnswered: count((row) => row.status === "answered"),
    slotsFinished: count((row) => row.slot_status === "finished"),
    oneAnsweredEvent: count((row) => Number(row.answered_events) === 1),
    oneEventJob: count((row) => Number(row.event_jobs) === 1),
    oneToolResult: count((row) => agentSet.has(row.id) && Number(row.tool_results) === 1),
    oneResumed: count((row) => agentSet.has(row.id) && Number(row.resumed) === 1),
    doubled: count(
      (row) => Number(row.answered_events) > 1 || Number(row.event_jobs) > 1 || Number(row.tool_results) > 1 || Number(row.resumed) > 1,
    ),
    eventJobsDone: rows.reduce((sum, row) => sum + Number(row.event_jobs_done), 0),
    jobsLeft: Number(left?.count ?? 0),
    agentRunsMovedOn: count((row) => agentSet.has(row.id) && row.run_state === "Reimbursing" && row.run_status === "waiting"),
    questionnaireRunsCompleted: count((row) => !agentSet.has(row.id) && row.run_state === "Completed" && row.run_status === "completed"),
  };
}
