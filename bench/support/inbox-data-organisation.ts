import { createHash } from "node:crypto";
import { Approval } from "../../examples/deploy-approval/start-input";
import { freeTextSchema } from "../../lib/asks/api-ask-workflow";
import { schemaFromJsonSchema } from "../../lib/questions/schema-from-json-schema";
import { specFromSchema } from "../../lib/questions/spec-from-schema";
import { agentAskSpec } from "../../lib/runtime/agent-question";

/**
 * What the organisation-sized part of the data set adds to the inbox benchmark's (issue 34): more
 * runs of another workflow in every state, one very long run, a big team with its own open
 * questions, one person's long notification history and one API key's many asks.
 */
export interface OrganisationParameters {
  /** DeployApproval runs over the platform's `tasks` table, in every run state (the long run is one of them). */
  deployRuns: number;
  /** Answered questions of the one long run (it waits on one more). */
  longRunQuestions: number;
  /** Asks made over the HTTP API by one agent key (ApiAsk runs), of which `teamOpen` wait on the team. */
  apiAsks: number;
  /** Members of the big team (`operations`). */
  teamSize: number;
  /** Open questions put to the big team (the key's open asks, `to: { group: "operations" }`). */
  teamOpen: number;
  /** Notifications of one person (the busiest filer). */
  notifications: number;
  /** Small teams (`team-01` …) of eight, beside the big one. */
  smallGroups: number;
}

export const ORGANISATION_DEFAULTS: OrganisationParameters = {
  deployRuns: 100_000,
  longRunQuestions: 1_000,
  apiAsks: 100_000,
  teamSize: 200,
  teamOpen: 50_000,
  notifications: 10_000,
  smallGroups: 40,
};

/** The big team's name. */
export const TEAM_NAME = "operations";
/** The agent key's name (who people see asking) and its secret: the benchmark calls `GET /api/v1/asks` with it. */
export const API_KEY_NAME = "Ops assistant";
export const API_KEY_SECRET = "pk_benchInboxAtScaleAgentKey0001";
/** A person's personal token for `GET /api/v1/questions`, made by the benchmark for whom it measures: `pt_benchInbox<user number>`. */
export function personalTokenSecret(userNumber: number): string {
  return `pt_benchInbox${String(userNumber).padStart(4, "0")}`;
}
export function secretHash(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** The tables this part fills (besides those the inbox part fills too). */
export const ORGANISATION_TABLES = ["tasks", "groups", "group_members", "person_notifications", "api_keys", "api_asks"];

const SERVICES = ["billing-api", "checkout", "search", "auth-service", "notifications", "ledger", "payments-gateway", "reporting", "inventory", "web-frontend"];
const CHANGES = [
  "Invoices get a tax line per region.", "Moves sessions to the new cache.", "Retries card payments once on a timeout.", "Drops the legacy export endpoint.",
  "Adds an index for the monthly report.", "Upgrades the HTTP client.", "Splits the queue by tenant.", "Turns on the new search ranking for 10% of users.",
];
const THIN_ANSWERS = ["revert it", "roll back", "redeploy the old one", "use the previous image", "ask ops"];
const PLAN_ANSWERS = [
  "Redeploy the previous version from the release pipeline; it takes ten minutes and the on-call engineer runs it.",
  "Flip the feature flag off, then roll the deployment back with the pipeline's rollback job; about five minutes.",
  "Restore the previous image tag in the manifest and let the deployer roll it out; fifteen minutes, run by the release manager.",
];
const ASK_TITLES = ["Approve the refund for order", "Can we ship invoice batch", "Raise the credit limit of customer", "Confirm the supplier change for", "Release the held payment"];
const ASK_ANSWERS = ["Yes, go ahead.", "No — wait for Monday.", "Approved, within budget.", "Refund it in full.", "Escalate to finance first."];

type Step = (label: string, statement: string, parameters?: unknown[]) => Promise<void>;

// Values are written into the statements as literals: a step may be several statements, which the
// simple query protocol runs at once but which cannot take parameters.
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
const textArray = (items: readonly string[]) => `array[${items.map(literal).join(", ")}]::text[]`;

/**
 * Adds the organisation-sized part to a database the inbox part has just filled, on its connection
 * (temp tables bench_assignees and bench_asks, the pg_temp helpers, foreign keys off, indexes
 * dropped). Server-side SQL over generate_series, deterministic but for `now`. Rows copy what the
 * runtime writes on each road (recorded from the real code: a DeployApproval run answered, timed out
 * and cancelled; API asks answered, put to a group, cancelled and closed as away).
 */
export async function generateOrganisationData(
  step: Step,
  context: {
    now: Date;
    historyDays: number;
    admins: number;
    operators: number;
    assignees: number;
    parameters: OrganisationParameters;
    /**
     * Whether `api_asks` keeps its question's status (migration 0018: a trigger on `asks` sets it, which
     * a load with triggers off does not run, so it is written here as the trigger would).
     */
    apiAskQuestionStatus: boolean;
  },
): Promise<void> {
  const { deployRuns, longRunQuestions, apiAsks, teamSize, teamOpen, notifications, smallGroups } = context.parameters;
  const { historyDays, assignees } = context;
  const nowSql = `'${context.now.toISOString()}'::timestamptz`;
  // The people the inbox part made: bench-0001 … the admins, then the operators.
  const adminId = "pg_temp.uid('user', 1)";
  const operators = `array(select pg_temp.uid('user', n) from generate_series(${context.admins + 1}, ${context.admins + context.operators}) n)`;
  const approvalSpec = JSON.stringify(specFromSchema(Approval, { title: "(title)" }));
  const checkerSpec = JSON.stringify(agentAskSpec("(question)"));
  const converted = schemaFromJsonSchema(freeTextSchema());
  if (!converted.ok) throw new Error("the free-text schema does not convert");
  const apiSpec = JSON.stringify(specFromSchema(converted.schema, { title: "(title)" }));
  const approvalFields = JSON.stringify([
    { kind: "enum", path: "decision", options: ["approve", "postpone", "reject"], question: "Do you approve this deployment?" },
    { kind: "date", path: "window", options: null, question: "On which day may it go out? (empty: as soon as possible)" },
    { kind: "list", path: "notify", options: null, question: "Which teams should hear of it? (comma-separated)" },
    { kind: "text", path: "notes", options: null, question: "Anything the deployer should know?" },
  ]);

  // The teams: one of `teamSize` assignees picked by hash, and small teams of eight (the filers' own teams).
  await step(
    "groups",
    `insert into groups (id, name, created_at)
     select pg_temp.uid('group', g), case when g = 0 then '${TEAM_NAME}' else format('team-%s', lpad(g::text, 2, '0')) end, ${nowSql} - interval '${historyDays + 20} days'
       from generate_series(0, ${smallGroups}) g;
     insert into group_members (group_id, user_id, added_at)
     select pg_temp.uid('group', 0), id, ${nowSql} - interval '${historyDays + 20} days'
       from (select id from bench_assignees order by pg_temp.r(n, 80) limit ${teamSize}) team
     union all
     select pg_temp.uid('group', 1 + rank / 8), id, ${nowSql} - interval '${historyDays + 20} days'
       from bench_assignees where rank < ${smallGroups * 8};
     create temp table bench_team as
       select row_number() over (order by m.user_id) as k, m.user_id as id from group_members m where m.group_id = pg_temp.uid('group', 0);
     create unique index on bench_team (k); analyze bench_team`,
  );

  // DeployApproval runs: the plan of each (what happened, how many questions, when). Run 0 is the long one.
  await step(
    "deployments (plan)",
    `create temp table bench_deploys as
     with base as (
       select j, j = 0 as is_long,
              pg_temp.pick(${textArray(SERVICES)}, j, 70) as service,
              format('%s.%s.%s', 1 + floor(4 * pg_temp.r(j, 71))::int, floor(30 * pg_temp.r(j, 72))::int, floor(10 * pg_temp.r(j, 73))::int) as version,
              case when j = 0 or pg_temp.r(j, 74) < 0.8 then 'production' else 'staging' end as environment,
              j <> 0 and pg_temp.r(j, 75) < 0.3 as rollback_tested,
              pg_temp.pick(${textArray(CHANGES)}, j, 76) as change,
              (select a.id from bench_assignees a where a.rank = case when j = 0 then ${Math.floor(assignees / 2)} else least(${assignees} - 1, floor(${assignees} * pg_temp.r(j, 77) ^ 1.5))::int end) as approver,
              ops.ids[1 + floor(pg_temp.r(j, 78) * ${context.operators})::int] as operator,
              case when j = 0 then 'waiting'
                   else case when pg_temp.r(j, 79) < 0.68 then 'completed' when pg_temp.r(j, 79) < 0.73 then 'waiting' when pg_temp.r(j, 79) < 0.74 then 'running'
                             when pg_temp.r(j, 79) < 0.78 then 'failed' when pg_temp.r(j, 79) < 0.92 then 'nothing' else 'cancelled' end end as outcome,
              pg_temp.r(j, 81) as draw
         from generate_series(0, ${deployRuns - 1}) j cross join (select ${operators} as ids) ops
     ), sized as (
       select base.*,
              case when is_long then ${longRunQuestions + 1}
                   when outcome in ('running', 'failed') then 0
                   when environment = 'production' and not rollback_tested then 1 + case when pg_temp.r(j, 82) < 0.5 then 0 when pg_temp.r(j, 82) < 0.85 then 1 else 2 end
                   else 0 end as checkers
         from base
     )
     select sized.*,
            -- Whether the approval questionnaire was put (after the checker was satisfied), and how the last question asked ended.
            case when is_long or outcome in ('running', 'failed') then false
                 when outcome in ('waiting', 'nothing', 'cancelled') and checkers > 0 and (outcome = 'nothing' or draw < 0.55) then false
                 else true end as approval,
            case outcome when 'completed' then 'answered' when 'waiting' then 'open' when 'cancelled' then 'cancelled'
                         when 'nothing' then case when checkers > 0 then 'expired' when draw < 0.5 then 'expired' when draw < 0.75 then 'refused' else 'away' end
                         else null end as last_status,
            case when draw < 0.7 then 'approve' when draw < 0.9 then 'postpone' else 'reject' end as decision,
            pg_temp.uid('deploy-task', j) as task_id, pg_temp.uid('deploy-conversation', j) as conversation_id,
            -- Ended: when (ramp: more recent, more work). Running: seconds ago. Failed on the model: when it started.
            ${nowSql} - interval '1 minute' - interval '${historyDays} days' * (1 - case when pg_temp.r(j, 83) < 0.3 then pg_temp.r(j, 84) else sqrt(pg_temp.r(j, 84)) end) as ended_at
       from sized;
     create unique index on bench_deploys (j); analyze bench_deploys`,
  );

  // One row per question asked: the checker's (1 … checkers) and the approval questionnaire, timed back from the run's anchor.
  await step(
    "deployment questions (plan)",
    `create temp table bench_deploy_asks as
     with asked as (
       select d.j, d.is_long, d.approver, d.operator, d.service, d.version, d.environment, d.decision, d.task_id, d.conversation_id, d.outcome, d.ended_at,
              q.q, q.q > d.checkers as is_approval, q.q = d.checkers + case when d.approval then 1 else 0 end as is_last, d.checkers
         from bench_deploys d cross join lateral generate_series(1, d.checkers + case when d.approval then 1 else 0 end) as q(q)
     ), waited as (
       select asked.*, d.last_status,
              case when is_last then d.last_status else 'answered' end as status,
              case when is_approval then interval '8 hours' else interval '4 hours' end as window_length,
              (j::bigint * 2000 + q) as n
         from asked join bench_deploys d using (j)
     ), timed as (
       select waited.*,
              case status
                when 'open' then interval '0'
                when 'expired' then window_length + interval '1 second' * floor(60 * pg_temp.r(n, 90))
                when 'away' then interval '0'
                when 'refused' then interval '1 minute' * power(10, 2 * pg_temp.r(n, 91))
                when 'cancelled' then interval '1 minute' * power(10, 2 * pg_temp.r(n, 91))
                else case when is_long then interval '30 minutes' * power(10, 0.7 * pg_temp.r(n, 92))
                          when is_approval then interval '1 minute' * power(10, 2.6 * pg_temp.r(n, 92))
                          else interval '1 minute' * power(10, 2.3 * pg_temp.r(n, 92)) end end as wait,
              interval '1 millisecond' * (200 + floor(1800 * pg_temp.r(n, 93))) as gap
         from waited
     ), anchored as (
       select timed.*,
              -- When the last question opened: an open one, so that its clock still runs; an ended one, back from when the run ended.
              max(case when status = 'open' then case when is_long then ${nowSql} - interval '1 hour' * pg_temp.r(j, 94)
                                                      else ${nowSql} - window_length * 0.85 * pg_temp.r(j, 94) end
                       else ended_at - wait end) filter (where is_last) over (partition by j) as last_opened
         from timed
     )
     select anchored.*,
            last_opened - coalesce(sum(wait + gap) over (partition by j order by q desc rows between unbounded preceding and 1 preceding), interval '0') as opened_at,
            pg_temp.pick(${textArray(THIN_ANSWERS)}, n, 95) as thin_answer, pg_temp.pick(${textArray(PLAN_ANSWERS)}, n, 96) as plan_answer
       from anchored;
     alter table bench_deploy_asks add column ask_id uuid, add column slot_id uuid, add column text text, add column answer_text text;
     update bench_deploy_asks set ask_id = pg_temp.uid7('deploy-ask', n, opened_at), slot_id = pg_temp.uid7('deploy-slot', n, opened_at),
       answer_text = case when is_approval then null when q = checkers and not is_long then plan_answer else thin_answer end;
     update bench_deploy_asks a set text = case when a.is_approval then 'Do you approve this deployment?'
                                                when a.q = 1 then format('The rollback of %s %s was not tested. If it fails in production, how do we roll back, and who does it?', a.service, a.version)
                                                else format('"%s" is not enough to go on. Which steps roll %s back to the version before %s, and how long do they take?', p.answer_text, a.service, a.version) end
       from bench_deploy_asks p where p.j = a.j and p.q = greatest(a.q - 1, 1);
     create unique index on bench_deploy_asks (j, q); analyze bench_deploy_asks`,
  );

  // Each run's start and end, from its questions (a run without any: its anchor).
  await step(
    "deployments (times)",
    `alter table bench_deploys add column started_at timestamptz, add column finished_at timestamptz, add column instance_id uuid;
     update bench_deploys d set
       started_at = case when d.outcome = 'running' then ${nowSql} - interval '2 minutes' * pg_temp.r(d.j, 97)
                         when t.first_opened is null then d.ended_at
                         else t.first_opened - interval '2 seconds' end,
       finished_at = case when d.outcome in ('waiting', 'running') then null
                          when d.outcome = 'failed' then d.ended_at + interval '31 seconds'
                          else t.last_ended end
       from (select j, min(opened_at) as first_opened, max(opened_at + wait) as last_ended from bench_deploy_asks group by j) t
      where t.j = d.j;
     update bench_deploys d set started_at = case when d.outcome = 'running' then ${nowSql} - interval '2 minutes' * pg_temp.r(d.j, 97) else d.ended_at end,
                                finished_at = case when d.outcome = 'failed' then d.ended_at + interval '31 seconds' end
      where d.started_at is null;
     update bench_deploys set instance_id = pg_temp.uid7('deploy-instance', j, started_at);
     analyze bench_deploys`,
  );

  await step(
    "deployment tasks and runs",
    `insert into tasks (id, workflow, status, title, input, created_by, created_at)
     select d.task_id, 'DeployApproval', s.status,
            format('Deploy %s %s to %s', d.service, d.version, d.environment),
            jsonb_build_object('service', d.service, 'version', d.version, 'environment', d.environment, 'change', d.change, 'rollbackTested', d.rollback_tested, 'approverId', d.approver),
            d.operator, d.started_at - interval '50 milliseconds'
       from bench_deploys d cross join lateral (select case d.outcome when 'nothing' then 'failed' when 'failed' then case when d.draw < 0.6 then 'failed' else 'retryable' end
                                                                  else d.outcome end as status) s;
     insert into workflow_instances (id, workflow, task_id, state, status, nothing_reason, version, last_error, created_at, updated_at)
     select d.instance_id, 'DeployApproval', d.task_id,
            case d.outcome
              when 'running' then 'Checking' when 'failed' then 'Checking'
              when 'completed' then case d.decision when 'approve' then 'Approved' when 'postpone' then 'Postponed' else 'Rejected' end
              when 'nothing' then case when d.approval then 'NotApproved' else 'TimedOut' end
              else case when d.approval then 'Approving' else 'Waiting' end end,
            case d.outcome when 'nothing' then 'failed' when 'failed' then case when d.draw < 0.6 then 'failed' else 'retryable' end else d.outcome end,
            case when d.outcome = 'nothing' then d.last_status end,
            1 + d.checkers + case when d.approval then 1 else 0 end + case when d.outcome in ('completed', 'nothing', 'cancelled', 'failed') then 1 else 0 end,
            case when d.outcome = 'failed' then 'The model call failed: 503 Service Unavailable (ReleaseChecker)' end,
            d.started_at, coalesce(d.finished_at, (select max(a.opened_at) from bench_deploy_asks a where a.j = d.j), d.started_at)
       from bench_deploys d`,
  );

  await step(
    "deployment questions and slots",
    `insert into asks (id, conversation_id, agent, task_id, tool_call_id, workflow_instance_id, workflow, event, slot_id, step_key, title, spec,
                       attempts_allowed, attempts_used, status, reason, answer, answered_by, asked_at, answered_at)
     select a.ask_id,
            case when a.is_approval then null else a.conversation_id end,
            case when a.is_approval then null else 'ReleaseChecker' end,
            a.task_id,
            case when a.is_approval then null else format('call-%s-0', 2 * a.q) end,
            d.instance_id, 'DeployApproval', case when a.is_approval then 'Approved' else 'Answered' end, a.slot_id,
            case when a.is_approval then format('%s:0', 20000000 + a.j) end,
            case when a.is_approval then format('Approve %s %s to %s?', a.service, a.version, a.environment) end,
            case when a.is_approval then jsonb_set(${literal(approvalSpec)}::jsonb, '{title}', to_jsonb(format('Approve %s %s to %s?', a.service, a.version, a.environment)))
                 else jsonb_set(${literal(checkerSpec)}::jsonb, '{fields,0,question}', to_jsonb(a.text)) end,
            3, case when a.status = 'refused' then 3 else 0 end,
            case a.status when 'open' then 'open' when 'answered' then 'answered' else 'nothing' end,
            case when a.status in ('expired', 'refused', 'away', 'cancelled') then a.status end,
            case when a.status <> 'answered' then null
                 when a.is_approval then jsonb_build_object('decision', a.decision, 'notify', jsonb_build_array('billing', 'support'), 'notes', '-')
                 else jsonb_build_object('text', a.answer_text) end,
            case when a.status = 'answered' then a.approver end,
            a.opened_at - interval '5 milliseconds',
            case when a.status <> 'open' then a.opened_at + a.wait end
       from bench_deploy_asks a join bench_deploys d on d.j = a.j
      order by a.opened_at;
     insert into slots (id, workflow_instance_id, workflow, task_id, state, event, role, assignee_id, candidate_ids, status,
                        opened_at, due_at, finished_by, finished_at, wait_ms, payload, agent)
     select a.slot_id, d.instance_id, 'DeployApproval', a.task_id,
            case when a.is_approval then 'Approving' else 'Waiting' end,
            case when a.is_approval then 'Approved' else 'Answered' end,
            case when a.is_approval then null else 'Approver' end,
            a.approver, array[a.approver],
            case a.status when 'open' then 'open' when 'answered' then 'finished' when 'expired' then 'expired' when 'cancelled' then 'cancelled' else 'closed' end,
            a.opened_at, a.opened_at + a.window_length,
            case when a.status = 'answered' then a.approver end,
            case when a.status <> 'open' then a.opened_at + a.wait end,
            case when a.status <> 'open' then (extract(epoch from a.wait) * 1000)::bigint end,
            case when a.status = 'answered' then
                   case when a.is_approval then jsonb_build_object('ok', true, 'value', jsonb_build_object('decision', a.decision, 'notify', jsonb_build_array('billing', 'support'), 'notes', '-'))
                        else jsonb_build_object('text', a.answer_text, 'questionId', a.ask_id) end
                 when a.status in ('refused', 'away') then jsonb_build_object('ok', false, 'reason', a.status) end,
            case when a.is_approval then null else 'ReleaseChecker' end
       from bench_deploy_asks a join bench_deploys d on d.j = a.j
      order by a.opened_at`,
  );

  // The release checker's memory: the brief, each ask call and its result, and its summary once satisfied.
  await step(
    "deployment conversations",
    `insert into conversation_messages (conversation_id, seq, role, message, tool_call_id, step_key, created_at)
     select conversation_id, seq, role, message, tool_call_id, step_key, at from (
       select d.conversation_id, d.j, 1 as seq, 'user' as role,
              jsonb_build_object('role', 'user', 'content', format(E'Check this release.\\nService: %s\\nVersion: %s\\nEnvironment: %s\\nRollback tested: %s\\nChange: %s',
                d.service, d.version, d.environment, case when d.rollback_tested then 'yes' else 'no' end, d.change)) as message,
              null as tool_call_id, format('d%s:0', d.j) as step_key, d.started_at as at
         from bench_deploys d
       union all
       select a.conversation_id, a.j, 2 * a.q, 'assistant',
              jsonb_build_object('role', 'assistant', 'content', jsonb_build_array(jsonb_build_object('type', 'tool-call', 'toolName', 'ask',
                'toolCallId', format('call-%s-0', 2 * a.q), 'input', jsonb_build_object('question', a.text)))),
              null, format('d%s:%s', a.j, a.q - 1), a.opened_at - interval '5 milliseconds'
         from bench_deploy_asks a where not a.is_approval
       union all
       select a.conversation_id, a.j, 2 * a.q + 1, 'tool',
              jsonb_build_object('role', 'tool', 'content', jsonb_build_array(jsonb_build_object('type', 'tool-result', 'toolName', 'ask',
                'toolCallId', format('call-%s-0', 2 * a.q), 'output', jsonb_build_object('type', 'text', 'value',
                a.answer_text)))),
              format('call-%s-0', 2 * a.q), null, a.opened_at + a.wait
         from bench_deploy_asks a where not a.is_approval and a.status = 'answered'
       union all
       select d.conversation_id, d.j, 2 * d.checkers + 2, 'assistant',
              jsonb_build_object('role', 'assistant', 'content', jsonb_build_array(jsonb_build_object('type', 'text', 'text',
                format('Ready: %s %s to %s; %s.', d.service, d.version, d.environment,
                  case when d.checkers = 0 then case when d.rollback_tested then 'the rollback was tested' else 'staging needs no rollback plan' end else 'the rollback plan names its steps' end)))),
              null, format('d%s:%s', d.j, d.checkers), a.opened_at - interval '20 milliseconds'
         from bench_deploys d join bench_deploy_asks a on a.j = d.j and a.is_approval
     ) m order by j, seq;
     insert into conversations (id, agent, task_id, message_count, created_at)
     select d.conversation_id, 'ReleaseChecker', d.task_id,
            -- The brief, each ask call and each answer to one, and the summary once satisfied (as the messages above).
            1 + coalesce(c.calls, 0) + coalesce(c.results, 0) + case when d.approval then 1 else 0 end, d.started_at
       from bench_deploys d
       left join (select j, count(*) filter (where not is_approval) as calls, count(*) filter (where not is_approval and status = 'answered') as results
                    from bench_deploy_asks group by j) c on c.j = d.j`,
  );

  // The run's events, as the runtime appends them on each road, in order within each run.
  await step(
    "deployment run events",
    `insert into run_events (task_id, workflow_instance_id, kind, agent, data, at)
     select task_id, instance_id, kind, agent, data, at from (
       select d.task_id, d.instance_id, e.kind, e.agent, e.data, e.at, d.j, 0 as q, e.part
         from bench_deploys d cross join lateral (values
           ('run-started', null::text, jsonb_build_object('workflow', 'DeployApproval'), d.started_at, 0, true),
           ('state-entered', null, '{"from": null, "state": "Checking"}'::jsonb, d.started_at, 1, true),
           ('turn-started', 'ReleaseChecker', '{}'::jsonb, d.started_at + interval '1 millisecond', 2, d.outcome in ('running', 'failed')),
           ('turn-failed', 'ReleaseChecker', '{"cause": "The model call failed: 503 Service Unavailable", "durationMs": 30000}'::jsonb, d.started_at + interval '30 seconds', 3, d.outcome = 'failed'),
           ('failed', null, jsonb_build_object('state', 'Checking', 'cause', 'The model call failed: 503 Service Unavailable (ReleaseChecker)', 'code', 'model_error', 'retryable', d.draw >= 0.6),
              d.started_at + interval '31 seconds', 4, d.outcome = 'failed')
         ) as e(kind, agent, data, at, part, happened)
        where e.happened
       union all
       select a.task_id, d.instance_id, e.kind, e.agent, e.data, e.at, a.j, a.q, e.part
         from bench_deploy_asks a join bench_deploys d on d.j = a.j
         cross join lateral (values
           -- The checker's turn that asks (a checker question), or that is satisfied (before the approval).
           ('turn-started', 'ReleaseChecker', '{}'::jsonb, a.opened_at - interval '30 milliseconds', 1, true),
           ('turn-finished', 'ReleaseChecker', '{"durationMs": 25}'::jsonb, a.opened_at - interval '20 milliseconds', 2, true),
           ('tool-called', 'ReleaseChecker', jsonb_build_object('tool', 'ask', 'input', jsonb_build_object('question', a.text), 'toolCallId', format('call-%s-0', 2 * a.q)),
              a.opened_at - interval '10 milliseconds', 3, not a.is_approval),
           ('state-entered', null, jsonb_build_object('from', case when a.q = 1 then 'Checking' else 'Waiting' end, 'state', 'Approving'), a.opened_at - interval '10 milliseconds', 4, a.is_approval),
           ('question-asked', case when a.is_approval then null else 'ReleaseChecker' end,
              case when a.is_approval
                   then jsonb_build_object('to', a.approver, 'text', a.text, 'title', format('Approve %s %s to %s?', a.service, a.version, a.environment),
                          'fields', ${literal(approvalFields)}::jsonb, 'options', '["approve", "postpone", "reject"]'::jsonb, 'attempts', 3, 'questionId', a.ask_id)
                   else jsonb_build_object('text', a.text, 'fields', jsonb_build_array(jsonb_build_object('kind', 'text', 'path', 'answer', 'options', null, 'question', a.text)),
                          'options', null, 'questionId', a.ask_id) end,
              a.opened_at - interval '5 milliseconds', 5, true),
           ('parked', case when a.is_approval then null else 'ReleaseChecker' end, jsonb_build_object('questions', jsonb_build_array(a.ask_id)),
              a.opened_at - interval '5 milliseconds', case when a.is_approval then 7 else 6 end, true),
           ('state-entered', null, jsonb_build_object('from', case when a.q = 1 then 'Checking' else 'Waiting' end, 'state', 'Waiting'), a.opened_at - interval '5 milliseconds', 7, not a.is_approval),
           ('slot-opened', null, jsonb_build_object('dueAt', a.opened_at + a.window_length, 'event', case when a.is_approval then 'Approved' else 'Answered' end, 'slotId', a.slot_id,
              'assigneeId', a.approver, 'candidates', 1), a.opened_at, case when a.is_approval then 6 else 8 end, true),
           -- How it ended.
           ('answered', null, jsonb_build_object('by', a.approver, 'event', case when a.is_approval then 'Approved' else 'Answered' end, 'slotId', a.slot_id,
              'waitMs', (extract(epoch from a.wait) * 1000)::bigint, 'questionId', a.ask_id), a.opened_at + a.wait, 10, a.status = 'answered'),
           ('resumed', 'ReleaseChecker', jsonb_build_object('questionId', a.ask_id), a.opened_at + a.wait + interval '40 milliseconds', 11, a.status = 'answered' and not a.is_approval),
           ('slot-expired', null, jsonb_build_object('dueAt', a.opened_at + a.window_length, 'event', case when a.is_approval then 'Approved' else 'Answered' end, 'slotId', a.slot_id,
              'waitMs', (extract(epoch from a.wait) * 1000)::bigint), a.opened_at + a.wait, 10, a.status = 'expired'),
           ('cancelled', null, jsonb_build_object('by', a.operator, 'from', 'waiting', 'state', case when a.is_approval then 'Approving' else 'Waiting' end, 'withdrawn', 1),
              a.opened_at + a.wait, 10, a.status = 'cancelled'),
           ('nothing', null, jsonb_build_object('by', case when a.status = 'cancelled' then a.operator::text when a.status = 'refused' then a.approver::text end,
              'reason', a.status, 'questionId', a.ask_id), a.opened_at + a.wait, 11, a.status in ('expired', 'refused', 'away', 'cancelled')),
           ('state-entered', null, jsonb_build_object('from', case when a.is_approval then 'Approving' else 'Waiting' end, 'state',
              case when a.status = 'answered' then case a.decision when 'approve' then 'Approved' when 'postpone' then 'Postponed' else 'Rejected' end
                   when a.is_approval then 'NotApproved' else 'TimedOut' end), a.opened_at + a.wait, 12,
              a.is_last and a.status in ('answered', 'expired', 'refused', 'away') and (a.is_approval or a.status <> 'answered')),
           ('completed', null, jsonb_build_object('state', case a.decision when 'approve' then 'Approved' when 'postpone' then 'Postponed' else 'Rejected' end, 'message', null),
              a.opened_at + a.wait, 13, a.is_last and a.is_approval and a.status = 'answered'),
           ('failed', null, case when a.is_approval then '{"state": "NotApproved", "message": "nobody approved or refused the deployment"}'::jsonb
                                 else '{"state": "TimedOut", "message": "the approver did not answer the release checker in time"}'::jsonb end,
              a.opened_at + a.wait, 13, a.is_last and a.status in ('expired', 'refused', 'away'))
         ) as e(kind, agent, data, at, part, happened)
        where e.happened
     ) e
     order by j, q, part`,
  );

  // The agent key and its asks: `teamOpen` open and put to the big team; the rest ended (answered, nothing, cancelled), mostly put to one person.
  await step(
    "api key and asks (plan)",
    `insert into api_keys (id, kind, name, secret_hash, secret_prefix, webhook_secret, user_id, created_by, created_at, last_used_at)
     values (pg_temp.uid('api-key', 1), 'agent', '${API_KEY_NAME}', '${secretHash(API_KEY_SECRET)}', '${API_KEY_SECRET.slice(0, 10)}',
             'whsec_YmVuY2gtaW5ib3gtYXQtc2NhbGUtd2ViaG9vay1zZWNyZXQ=', null, ${adminId}, ${nowSql} - interval '${historyDays + 10} days', ${nowSql} - interval '1 hour');
     create temp table bench_api_asks as
     with base as (
       select i, row_number() over (order by pg_temp.r(i, 100)) <= ${teamOpen} as is_open, pg_temp.r(i, 101) as draw
         from generate_series(1, ${apiAsks}) i
     ), planned as (
       select base.*,
              case when is_open then 'open' when draw < 0.6 then 'answered' when draw < 0.70 then 'expired' when draw < 0.775 then 'away' when draw < 0.85 then 'refused' else 'cancelled' end as outcome,
              is_open or pg_temp.r(i, 102) < 0.1 as to_team,
              case when is_open then ${nowSql} - interval '10 days' * pg_temp.r(i, 103) ^ 2 - interval '1 minute'
                   else ${nowSql} - interval '2 hours' - interval '${historyDays} days' * (1 - sqrt(pg_temp.r(i, 103))) end as created_at,
              (select a.id from bench_assignees a where a.rank = least(${assignees} - 1, floor(${assignees} * pg_temp.r(i, 104) ^ 2))::int) as person,
              (select t.id from bench_team t where t.k = 1 + floor(pg_temp.r(i, 105) * ${teamSize})::int) as member
         from base
     )
     select planned.*,
            -- A deadline: an open one from a day to ten days after it was asked (so some have passed), none for a fifth; an expired one always had one.
            case when outcome = 'expired' then created_at + interval '1 day'
                 when pg_temp.r(i, 106) < 0.2 then null
                 when is_open then created_at + interval '1 day' * (1 + 9 * pg_temp.r(i, 107))
                 else created_at + interval '3 days' end as due_at,
            case outcome when 'open' then interval '0' when 'expired' then interval '1 day' + interval '1 second' * floor(60 * pg_temp.r(i, 108))
                         when 'away' then interval '0' else interval '1 minute' * power(10, 3 * pg_temp.r(i, 108)) end as wait,
            pg_temp.pick(${textArray(ASK_TITLES)}, i, 109) || ' ' || (100000 + i) || '?' as title,
            pg_temp.pick(${textArray(ASK_ANSWERS)}, i, 110) as answer_text,
            pg_temp.uid7('api-ask', i, created_at) as ask_id, pg_temp.uid7('api-question', i, created_at) as question_id,
            pg_temp.uid7('api-instance', i, created_at) as instance_id, pg_temp.uid7('api-slot', i, created_at) as slot_id
       from planned;
     create unique index on bench_api_asks (i); analyze bench_api_asks`,
  );

  await step(
    "api asks, their runs, questions and slots",
    `insert into api_asks (id, api_key_id, idempotency_key, request_hash, question_id, status, ${context.apiAskQuestionStatus ? "question_status, " : ""}title, body, context, response_schema, "to",
                           assignee_id, candidate_ids, due_at, attempts, created_at)
     select k.ask_id, pg_temp.uid('api-key', 1), case when k.i % 2 = 0 then format('bench-%s', k.i) end, md5('request:' || k.i) || md5('hash:' || k.i), k.question_id,
            case when k.is_open then 'waiting' when k.outcome = 'answered' then 'completed' else 'failed' end,
            ${context.apiAskQuestionStatus ? "case k.outcome when 'open' then 'open' when 'answered' then 'answered' else 'nothing' end," : ""}
            k.title,
            case when k.i % 3 = 0 then 'The customer wrote in twice about this; the amount is over the automatic limit.' end,
            json_build_object('order', format('ORD-%s', 100000 + k.i), 'amount', round((20 + 2000 * pg_temp.r(k.i, 111))::numeric, 2), 'priority', k.i % 5 = 0),
            null, case when k.to_team then '{"group": "${TEAM_NAME}"}'::json else to_json(u.email) end,
            case when k.to_team then null else k.person end,
            case when k.to_team then '{}'::uuid[] else array[k.person] end,
            k.due_at, 3, k.created_at
       from bench_api_asks k join users u on u.id = k.person
      order by k.created_at;
     insert into workflow_instances (id, workflow, task_id, state, status, nothing_reason, version, created_at, updated_at)
     select k.instance_id, 'ApiAsk', k.ask_id,
            case k.outcome when 'open' then 'Asking' when 'answered' then 'Answered' else 'Unanswered' end,
            -- An ask nobody answered ends its run as any run a question left without an answer: failed, with the reason.
            case when k.is_open then 'waiting' when k.outcome = 'answered' then 'completed' else 'failed' end,
            case when k.is_open or k.outcome = 'answered' then null else k.outcome end,
            case when k.is_open then 0 else 1 end, k.created_at, k.created_at + k.wait
       from bench_api_asks k;
     insert into asks (id, conversation_id, agent, task_id, tool_call_id, workflow_instance_id, workflow, event, slot_id, step_key, title, spec, response_schema,
                       attempts_allowed, attempts_used, status, reason, answer, answered_by, asked_at, answered_at)
     select k.question_id, null, null, k.ask_id, null, k.instance_id, 'ApiAsk', 'Answered', k.slot_id, format('%s:0', 30000000 + k.i), k.title,
            jsonb_set(${literal(apiSpec)}::jsonb, '{title}', to_jsonb(k.title)), ${literal(JSON.stringify(freeTextSchema()))}::json,
            3, case when k.outcome = 'refused' then 3 else 0 end,
            case k.outcome when 'open' then 'open' when 'answered' then 'answered' else 'nothing' end,
            case when k.outcome in ('expired', 'away', 'refused', 'cancelled') then k.outcome end,
            case when k.outcome = 'answered' then jsonb_build_object('answer', k.answer_text) end,
            case when k.outcome = 'answered' then case when k.to_team then k.member else k.person end end,
            k.created_at, case when not k.is_open then k.created_at + k.wait end
       from bench_api_asks k
      order by k.created_at;
     insert into slots (id, workflow_instance_id, workflow, task_id, state, event, role, assignee_id, candidate_ids, candidate_group_ids, status,
                        opened_at, due_at, finished_by, finished_at, wait_ms, payload, agent)
     select k.slot_id, k.instance_id, 'ApiAsk', k.ask_id, 'Asking', 'Answered', null,
            case when k.to_team then null else k.person end,
            case when k.to_team then '{}'::uuid[] else array[k.person] end,
            case when k.to_team then array[pg_temp.uid('group', 0)] else '{}'::uuid[] end,
            case k.outcome when 'open' then 'open' when 'answered' then 'finished' when 'expired' then 'expired' else 'closed' end,
            k.created_at, k.due_at,
            case when k.outcome = 'answered' then case when k.to_team then k.member else k.person end end,
            case when not k.is_open then k.created_at + k.wait end,
            case when not k.is_open then (extract(epoch from k.wait) * 1000)::bigint end,
            case when k.outcome = 'answered' then jsonb_build_object('ok', true, 'value', jsonb_build_object('answer', k.answer_text))
                 when k.outcome in ('away', 'refused', 'cancelled') then jsonb_build_object('ok', false, 'reason', k.outcome) end,
            '${API_KEY_NAME}'
       from bench_api_asks k
      order by k.created_at`,
  );

  await step(
    "api ask run events",
    `insert into run_events (task_id, workflow_instance_id, kind, agent, data, at)
     select k.ask_id, k.instance_id, e.kind, null, e.data, e.at
       from bench_api_asks k cross join lateral (values
         ('run-started', jsonb_build_object('workflow', 'ApiAsk'), k.created_at, 0, true),
         ('state-entered', '{"from": null, "state": "Asking"}'::jsonb, k.created_at, 1, true),
         ('question-asked', jsonb_build_object('to', case when k.to_team then '{"group": "${TEAM_NAME}"}'::jsonb else to_jsonb(k.person) end, 'text', 'Your answer', 'title', k.title,
            'fields', '[{"kind": "text", "path": "answer", "options": null, "question": "Your answer"}]'::jsonb, 'options', null, 'attempts', 3, 'questionId', k.question_id),
            k.created_at, 2, true),
         ('slot-opened', jsonb_build_object('dueAt', k.due_at, 'event', 'Answered', 'slotId', k.slot_id, 'assigneeId', case when k.to_team then null else k.person end,
            'candidates', case when k.to_team then 0 else 1 end), k.created_at, 3, true),
         ('parked', jsonb_build_object('questions', jsonb_build_array(k.question_id)), k.created_at, 4, true),
         ('answered', jsonb_build_object('by', case when k.to_team then k.member else k.person end, 'event', 'Answered', 'slotId', k.slot_id,
            'waitMs', (extract(epoch from k.wait) * 1000)::bigint, 'questionId', k.question_id), k.created_at + k.wait, 5, k.outcome = 'answered'),
         ('slot-expired', jsonb_build_object('dueAt', k.due_at, 'event', 'Answered', 'slotId', k.slot_id, 'waitMs', (extract(epoch from k.wait) * 1000)::bigint),
            k.created_at + k.wait, 5, k.outcome = 'expired'),
         ('nothing', jsonb_build_object('by', case when k.outcome = 'refused' then k.person end, 'reason', k.outcome, 'questionId', k.question_id),
            k.created_at + k.wait, 6, k.outcome in ('expired', 'away', 'refused', 'cancelled')),
         ('state-entered', jsonb_build_object('from', 'Asking', 'state', case when k.outcome = 'answered' then 'Answered' else 'Unanswered' end), k.created_at + k.wait, 7, not k.is_open),
         ('completed', jsonb_build_object('state', 'Answered', 'message', null), k.created_at + k.wait, 8, k.outcome = 'answered'),
         ('failed', jsonb_build_object('state', 'Unanswered', 'message', 'nobody answered'), k.created_at + k.wait, 8, not k.is_open and k.outcome <> 'answered')
       ) as e(kind, data, at, part, happened)
      where e.happened
      order by k.i, e.part`,
  );

  // One person's notifications: the busiest filer's newest questions, most of them read.
  await step(
    "notifications",
    `insert into person_notifications (id, user_id, kind, task_id, question_id, slot_id, data, created_at, read_at)
     select pg_temp.uid('notification', x.m), x.filer,
            case when pg_temp.r(x.m, 120) < 0.85 then 'question' when pg_temp.r(x.m, 120) < 0.95 then 'reminder' else 'escalated' end,
            x.task_id, x.ask_id, x.slot_id,
            case when pg_temp.r(x.m, 120) < 0.85 then jsonb_build_object('headline', left(x.text, 200), 'askedBy', 'Auditor')
                 when pg_temp.r(x.m, 120) < 0.95 then jsonb_build_object('headline', left(x.text, 200), 'remindedBy', 'Ada Rivera')
                 else jsonb_build_object('group', 'team-01', 'escalationStep', 1, 'percent', 50, 'headline', left(x.text, 200), 'askedBy', 'Auditor') end,
            x.opened_at + interval '1 second',
            case when x.m > ${Math.floor(notifications * 0.2)} then x.opened_at + interval '1 hour' end
       from (select row_number() over (order by q.opened_at desc) as m, q.filer, q.task_id, q.ask_id, q.slot_id, coalesce(q.text, 'How should we pay you back?') as text, q.opened_at
               from bench_asks q where q.filer = (select id from bench_assignees where rank = 0)
              order by q.opened_at desc limit ${notifications}) x`,
  );
}
