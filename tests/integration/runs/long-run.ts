import { sql } from "drizzle-orm";
import { type Db, queryRows } from "@/db/client";
import { agentAskSpec } from "@/lib/runtime/agent-question";

/** The events one earlier ask adds to a run: the turn that asked, the wait, the answer and the resume. */
export const EVENTS_PER_ASK = 9;

/** The text of the `n`-th earlier answer (1-based), so a test can tell which answers a page shows. */
export function earlierAnswer(n: number): string {
  return `Earlier answer number ${n}.`;
}

/**
 * Gives a started review of the expense-review example a long history before its open question, as
 * a real organisation's long run has (issue 34 measured one of 9,022 events and 1,002 answers):
 * `asks` earlier questions of its Auditor, each asked in a model turn, answered by `by` and resumed —
 * the asks, the conversation's messages and the run's events as the runtime writes them — in a few
 * statements. The open question's own messages come after them, as they would.
 */
export async function giveLongHistory(db: Db, options: { taskId: string; asks: number; by: string; from: Date }): Promise<{ askIds: string[]; conversationId: string }> {
  const { taskId, asks, by } = options;
  const from = options.from.toISOString();
  const [conversation] = await queryRows<{ id: string }>(db, sql`select id from conversations where task_id = ${taskId} and agent = 'Auditor'`);
  if (!conversation) throw new Error(`the review ${taskId} has no Auditor conversation: start it and run its jobs first`);
  const conversationId = conversation.id;
  const spec = JSON.stringify(agentAskSpec("What was this earlier charge for?"));

  const made = await queryRows<{ id: string; n: number | string }>(
    db,
    sql`insert into asks (conversation_id, agent, task_id, tool_call_id, workflow_instance_id, workflow, event, spec, status, answer, answered_by, asked_at, answered_at)
        select ${conversationId}::uuid, 'Auditor', ${taskId}::uuid, 'earlier-call-' || n,
               (select id from workflow_instances where task_id = ${taskId}), 'ReviewClaim', 'Answered', ${spec}::jsonb, 'answered',
               jsonb_build_object('text', 'Earlier answer number ' || n || '.'), ${by}::uuid,
               ${from}::timestamptz + n * interval '1 minute', ${from}::timestamptz + n * interval '1 minute' + interval '20 seconds'
          from generate_series(1, ${asks}::int) as n
        returning id, substring(tool_call_id from 14)::int as n`,
  );
  const askIds = made.sort((a, b) => Number(a.n) - Number(b.n)).map((row) => row.id);

  // The open question's messages (all but the brief) move after the earlier ones.
  await queryRows(db, sql`update conversation_messages set seq = seq + 2 * ${asks}::int where conversation_id = ${conversationId} and seq > 1`);
  await queryRows(
    db,
    sql`insert into conversation_messages (conversation_id, seq, role, message, tool_call_id, created_at)
        select ${conversationId}::uuid, 2 * n + part, role, message, result_of, ${from}::timestamptz + n * interval '1 minute'
          from generate_series(1, ${asks}::int) as n
          cross join lateral (values
            (0, 'assistant', jsonb_build_object('role', 'assistant', 'content', jsonb_build_array(jsonb_build_object('type', 'tool-call', 'toolName', 'ask',
               'toolCallId', 'earlier-call-' || n, 'input', jsonb_build_object('question', 'What was earlier charge number ' || n || ' for?')))), null),
            (1, 'tool', jsonb_build_object('role', 'tool', 'content', jsonb_build_array(jsonb_build_object('type', 'tool-result', 'toolName', 'ask',
               'toolCallId', 'earlier-call-' || n, 'output', jsonb_build_object('type', 'text', 'value', 'Earlier answer number ' || n || '.')))), 'earlier-call-' || n)
          ) as m(part, role, message, result_of)
         order by n, part`,
  );
  await queryRows(db, sql`update conversations set message_count = message_count + 2 * ${asks}::int where id = ${conversationId}`);

  await queryRows(
    db,
    sql`insert into run_events (task_id, workflow_instance_id, kind, agent, data, at)
        select a.task_id, a.workflow_instance_id, e.kind, e.agent, e.data, a.asked_at + e.after
          from asks a cross join lateral (values
            (0, 'turn-started', 'Auditor', '{}'::jsonb, interval '-2 seconds'),
            (1, 'turn-finished', 'Auditor', '{"durationMs": 1500}'::jsonb, interval '-500 milliseconds'),
            (2, 'tool-called', 'Auditor', jsonb_build_object('tool', 'ask', 'toolCallId', a.tool_call_id), interval '-500 milliseconds'),
            (3, 'state-entered', null, '{"from": "Running", "state": "Waiting"}'::jsonb, interval '0'),
            (4, 'question-asked', 'Auditor', jsonb_build_object('questionId', a.id, 'text', 'What was earlier charge number ' || substring(a.tool_call_id from 14) || ' for?'), interval '0'),
            (5, 'parked', 'Auditor', jsonb_build_object('questions', jsonb_build_array(a.id)), interval '0'),
            (6, 'slot-opened', null, jsonb_build_object('event', 'Answered', 'assigneeId', ${by}::text), interval '0'),
            (7, 'answered', null, jsonb_build_object('event', 'Answered', 'questionId', a.id, 'by', ${by}::text, 'waitMs', 20000), interval '20 seconds'),
            (8, 'resumed', 'Auditor', jsonb_build_object('questionId', a.id), interval '21 seconds')
          ) as e(part, kind, agent, data, after)
         where a.task_id = ${taskId} and a.tool_call_id like 'earlier-call-%'
         order by a.asked_at, e.part`,
  );
  return { askIds, conversationId };
}
