import type postgres from "postgres";
import { Reimbursement } from "../../examples/expense-review/reimbursement";
import { hashPassword } from "../../lib/auth/password";
import { specFromSchema } from "../../lib/questions/spec-from-schema";
import { agentAskSpec } from "../../lib/runtime/agent-question";
import { generateOrganisationData, ORGANISATION_DEFAULTS, ORGANISATION_TABLES, type OrganisationParameters } from "./inbox-data-organisation";

/** What the generator makes; the same parameters make the same rows (ids, names, times relative to `now`). */
export interface InboxDataParameters {
  /** People: a few admins and operators, the rest assignees. */
  users: number;
  /** Questions (`asks`), both kinds; a multiple of 10 (tasks come in blocks of 1, 2, 3 and 4 questions). */
  questions: number;
  /** Of which still open, each with its open slot: one per open task. */
  open: number;
  /** How far back the recorded history goes. */
  historyDays: number;
  /** The organisation-sized part (issue 34): more runs, a long run, a big team, notifications, an API key's asks. */
  organisation: OrganisationParameters;
}

export const INBOX_DATA_DEFAULTS: InboxDataParameters = { users: 1_000, questions: 1_000_000, open: 100_000, historyDays: 120, organisation: ORGANISATION_DEFAULTS };

/** Everyone the generator makes signs in with this password. */
export const BENCH_PASSWORD = "bench-inbox-password";

/** The admins are the first people made: bench-0001 … */
export const ADMIN_COUNT = 5;
const OPERATOR_COUNT = 20;
/** Assignees work in teams; an Auditor's question is open to the filer and three teammates. */
const TEAM_SIZE = 8;

export function benchEmail(n: number): string {
  return `bench-${String(n).padStart(4, "0")}@parley.test`;
}

const FIRST_NAMES = [
  "Ada", "Ben", "Chen", "Dara", "Eli", "Farah", "Gus", "Hana", "Ivo", "Jun", "Kofi", "Lena", "Mateo", "Nia", "Omar", "Pia", "Quinn", "Rosa",
  "Sam", "Tariq", "Uma", "Vik", "Wen", "Xavi", "Yara", "Zeno", "Amir", "Bea", "Cleo", "Dev", "Esme", "Finn", "Gita", "Hugo", "Iris", "Jonas",
  "Kira", "Luca", "Mina", "Noor",
];
const LAST_NAMES = [
  "Rivera", "Shah", "Okafor", "Nakamura", "Silva", "Novak", "Haddad", "Larsen", "Moreau", "Kowalski", "Adeyemi", "Costa", "Fischer", "Gupta",
  "Jensen", "Khan", "Lopez", "Murphy", "Nguyen", "Olsen", "Petrov", "Rossi", "Schmidt", "Tanaka", "Weber",
];
const MERCHANTS = [
  "Cervejaria Ramiro", "Luigi's Trattoria", "Lisbon Taxis", "Hotel Adlon", "Deutsche Bahn", "Pret A Manger", "Uber", "Airbnb", "Ryanair",
  "The Ivy", "Staples", "Apple Store", "WeWork", "Eurostar", "Sushi Samba", "Hertz", "Le Pain Quotidien", "Dishoom", "Marriott", "Shell",
];
const CLAIM_TITLES = [
  "Team dinner after the launch", "Taxi to the client", "Conference hotel", "Train to Berlin", "Client lunch", "Flight to Dublin", "Office supplies",
  "Coworking day pass", "Car rental for the site visit", "Fuel for the van", "Laptop charger", "Workshop catering", "Dinner, Lisbon",
];
const ATTENDEES = ["Sam", "Acme team", "Priya", "the client", "Lee", "procurement", "the board", "two engineers"];

/** The tables the generator fills. */
const LOADED_TABLES = [
  "users", "claims", "review_tasks", "review_questions", "workflow_instances", "conversations", "conversation_messages", "asks", "slots", "run_events",
  ...ORGANISATION_TABLES,
];

/** Runs each statement of the generator, logging how long it took. */
type Step = (label: string, statement: string, parameters?: unknown[]) => Promise<void>;

/** What was made, for the results: sizes, and who the benchmark signs in as. */
export interface GeneratedData {
  parameters: InboxDataParameters;
  now: Date;
  seconds: number;
  counts: Record<string, number>;
}

/**
 * Fills an empty, migrated database with a Parley that has run for months: `users` people, review
 * tasks over claims (ReviewClaim: the Auditor asks the filer 1–3 questions, an approved claim then
 * asks the Reimbursement questionnaire), `questions` questions with their slots, conversations,
 * review_questions and run events, `open` of them still waiting. All server-side SQL over
 * generate_series; deterministic (hash-based, no random()) apart from `now`.
 *
 * The shape of each row copies what the runtime writes on the real road (see the ReviewClaim
 * whole-road test): agent asks stay `open` until answered, an expired slot's question ends with
 * nothing (`expired`), a questionnaire's slot is open to its one person.
 */
export async function generateInboxData(client: postgres.Sql, parameters: InboxDataParameters, now: Date, log: (line: string) => void): Promise<GeneratedData> {
  const { users, questions, open, historyDays } = parameters;
  if (questions % 10 !== 0) throw new Error("questions must be a multiple of 10");
  const tasks = (questions / 10) * 4;
  if (open > tasks) throw new Error(`at most ${tasks} questions can be open (one per task)`);
  const started = performance.now();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const question = "(the question)";
  const textSpec = agentAskSpec(question);
  const enumSpec = agentAskSpec(question, ["A client meeting", "Team travel", "Personal — I'll repay it"]);
  const reimbursementSpec = specFromSchema(Reimbursement);
  const nowSql = `'${now.toISOString()}'::timestamptz`;

  const reserved = await client.reserve();
  const step: Step = async (label, statement, values = []) => {
    const at = performance.now();
    await reserved.unsafe(statement, values as postgres.ParameterOrJSON<never>[]);
    log(`  ${label}: ${((performance.now() - at) / 1000).toFixed(1)} s`);
  };
  try {
    // The rows are valid by construction; foreign-key triggers would only slow a bulk load.
    await reserved.unsafe("set session_replication_role = replica");
    await reserved.unsafe("set synchronous_commit = off");
    await reserved.unsafe("set work_mem = '256MB'");
    await reserved.unsafe("set maintenance_work_mem = '512MB'");
    // A uniform number in [0, 1) from (n, salt): stable across runs, unlike random().
    await reserved.unsafe(`create function pg_temp.r(n bigint, salt int) returns float8 language sql immutable as
      $$ select ((hashint8extended(n, salt) >> 11) & 4503599627370495)::float8 / 4503599627370496.0 $$`);
    // A well-formed (version 4) uuid from a name: the same rows get the same ids every time.
    await reserved.unsafe(`create function pg_temp.uid(kind text, n bigint) returns uuid language sql immutable as
      $$ select overlay(overlay(md5(kind || ':' || n) placing '4' from 13) placing '8' from 17)::uuid $$`);
    // …and a time-ordered one (version 7: the milliseconds of `at` first), as the runtime makes for questions and slots.
    await reserved.unsafe(`create function pg_temp.uid7(kind text, n bigint, at timestamptz) returns uuid language sql immutable as
      $$ select (lpad(to_hex(floor(extract(epoch from at) * 1000)::bigint), 12, '0') || '7' || substr(md5(kind || ':' || n), 1, 3)
                 || '8' || substr(md5(kind || ':' || n), 4, 15))::uuid $$`);
    await reserved.unsafe(`create function pg_temp.pick(items text[], n bigint, salt int) returns text language sql immutable as
      $$ select items[1 + floor(pg_temp.r(n, salt) * array_length(items, 1))::int] $$`);

    // Secondary indexes are built once after the load (far quicker than maintaining them row by
    // row); the definitions are the migrations' own, read back from the catalogue.
    const indexes = await reserved.unsafe<{ name: string; definition: string }[]>(
      `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
         from pg_index i join pg_class t on t.oid = i.indrelid
        where t.relnamespace = 'public'::regnamespace and t.relname = any($1) and not i.indisprimary
          and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
      [LOADED_TABLES],
    );
    for (const index of indexes) await reserved.unsafe(`drop index ${index.name}`);

    await step(
      "users",
      `insert into users (id, email, name, password_hash, roles, away, created_at)
       select pg_temp.uid('user', n), format('bench-%s@parley.test', lpad(n::text, 4, '0')),
              ($1::text[])[1 + (n - 1) % ${FIRST_NAMES.length}] || ' ' || ($2::text[])[1 + ((n - 1) / ${FIRST_NAMES.length}) % ${LAST_NAMES.length}]
                || case when n > ${FIRST_NAMES.length * LAST_NAMES.length} then ' ' || n else '' end,
              $3,
              case when n <= ${ADMIN_COUNT} then array['admin']
                   when n <= ${ADMIN_COUNT + OPERATOR_COUNT} then array['operator']
                   when n % 25 = 0 then array['assignee', 'operator']
                   else array['assignee'] end,
              false, ${nowSql} - interval '${historyDays + 30} days'
         from generate_series(1, ${users}) n`,
      [FIRST_NAMES, LAST_NAMES, passwordHash],
    );

    // Assignees in a shuffled order: a few of them file most of the claims (rank² skew), teams of eight.
    await step(
      "assignees",
      `create temp table bench_assignees as
       select (row_number() over (order by pg_temp.r(n, 1)) - 1)::int as rank, n, pg_temp.uid('user', n) as id
         from generate_series(${ADMIN_COUNT + OPERATOR_COUNT + 1}, ${users}) n;
       create unique index on bench_assignees (rank);
       analyze bench_assignees`,
    );
    const [row] = await reserved.unsafe<{ count: number }[]>("select count(*)::int as count from bench_assignees");
    const assignees = row!.count;

    // Tasks: blocks of ten questions make four tasks of 1, 2, 3 and 4 questions. `open` tasks (chosen
    // by hash) wait on their last question; the others ended, spread over the history with a ramp (more recent, more work).
    await step(
      "tasks (plan)",
      `create temp table bench_tasks as
       with base as (
         select t, (t % 4 + 1)::int as size, ((t / 4) * 10 + (array[0, 1, 3, 6])[t % 4 + 1])::bigint as first_ask,
                pg_temp.r(t, 2) < 0.6 as reimbursed,
                least(${assignees} - 1, floor(${assignees} * pg_temp.r(t, 3) ^ 2))::int as filer_rank,
                row_number() over (order by pg_temp.r(t, 4)) <= ${open} as is_open
           from generate_series(0, ${tasks - 1}) t
       )
       select base.*, a.id as filer, a.n as filer_n, (a.rank / ${TEAM_SIZE})::int as team,
              pg_temp.uid('user', ${ADMIN_COUNT} + 1 + floor(pg_temp.r(t, 5) * ${OPERATOR_COUNT})::int) as operator,
              pg_temp.uid('task', t) as task_id, pg_temp.uid('claim', t) as claim_id, pg_temp.uid('instance', t) as instance_id,
              pg_temp.uid('conversation', t) as conversation_id,
              -- Closed: when the last question ended (ramp: density grows toward now). Open: its band.
              ${nowSql} - interval '1 minute' - interval '${historyDays} days' *
                (1 - case when pg_temp.r(t, 6) < 0.3 then pg_temp.r(t, 7) else sqrt(pg_temp.r(t, 7)) end) as ended_at,
              pg_temp.r(t, 8) as band_draw, pg_temp.r(t, 9) as band_depth
         from base join bench_assignees a on a.rank = base.filer_rank;
       create unique index on bench_tasks (t);
       analyze bench_tasks`,
    );

    // One row per question: its kind, window, wait, and — from the task's anchor backwards — its times.
    await step(
      "questions (plan)",
      `create temp table bench_asks as
       with asks as (
         select k.t, k.size, k.reimbursed, k.is_open, k.filer, k.team, k.task_id, k.instance_id, k.conversation_id, k.ended_at,
                k.band_draw, k.band_depth, s.seq, k.first_ask + s.seq - 1 as n, s.seq = k.size as is_last,
                (k.reimbursed and s.seq = k.size) as questionnaire
           from bench_tasks k cross join lateral generate_series(1, k.size) as s(seq)
       ), timed as (
         select asks.*,
                -- The flow's window: two days for the Auditor's questions, three for the questionnaire (ReviewClaim's own).
                case when questionnaire then interval '3 days' else interval '2 days' end as window_length,
                -- Waits from a minute to about four days, log-uniform; an earlier question was answered in time.
                interval '1 minute' * power(10, 3.75 * pg_temp.r(n, 10)) as drawn_wait,
                -- The next question opens shortly after an answer: the job that resumes the run.
                interval '1 millisecond' * (200 + floor(2800 * pg_temp.r(n, 11))) as gap,
                pg_temp.r(n, 12) < 0.03 as closed_with_nothing
           from asks
       ), outcome as (
         select timed.*,
                case when is_open and is_last then 'open'
                     when not is_last then 'finished'
                     when closed_with_nothing then 'closed'
                     when drawn_wait >= window_length then 'expired'
                     else 'finished' end as slot_status
           from timed
       ), waited as (
         select outcome.*,
                case slot_status
                  when 'open' then interval '0'
                  when 'expired' then window_length + interval '1 second' * floor(60 * pg_temp.r(n, 13))
                  when 'finished' then case when drawn_wait >= window_length then drawn_wait * 0.3 else drawn_wait end
                  else drawn_wait * 0.5 end as wait
           from outcome
       ), anchored as (
         select waited.*,
                -- Open: where its clock stands now (5% no deadline, 10% breached, 15% at risk, 70% on time).
                case when not is_open then null
                     when band_draw < 0.05 then null
                     when band_draw < 0.15 then ${nowSql} - interval '1 minute' - interval '36 hours' * band_depth
                     when band_draw < 0.30 then ${nowSql} + interval '1 minute' + (window_length * 0.25 - interval '2 minutes') * band_depth
                     else ${nowSql} + window_length * 0.25 + interval '1 minute' + (window_length * 0.75 - interval '2 minutes') * band_depth end as open_due
           from waited
       ), timed_back as (
         select anchored.*,
                -- From the anchor (the last question's end, or when the open one opened) back through each wait and gap.
                (case when is_open then coalesce(max(open_due - window_length) filter (where is_last) over task, ${nowSql} - interval '30 days' * band_depth ^ 2)
                      else ended_at end)
                  - sum(wait + case when is_last then interval '0' else gap end) over later as opened_at
           from anchored
         window task as (partition by t), later as (partition by t order by seq desc rows between unbounded preceding and current row)
       )
       -- Questions and slots have time-ordered ids, as the runtime gives them.
       select timed_back.*, pg_temp.uid7('ask', n, opened_at) as ask_id, pg_temp.uid7('slot', n, opened_at) as slot_id
         from timed_back
        order by n;
       create unique index on bench_asks (n);
       analyze bench_asks`,
    );

    // Who answered: the filer most of the time, else one of the teammates the question was also open to.
    await step(
      "questions (parties)",
      `create temp table bench_parties as
       with ids as (select array_agg(id order by rank) as ids from bench_assignees),
       placed as (
         select q.n, q.questionnaire, q.filer, k.filer_rank, k.team,
                least(${TEAM_SIZE}, ${assignees} - k.team * ${TEAM_SIZE}) as team_size,
                floor(7 * pg_temp.r(q.n, 14))::int as start
           from bench_asks q join bench_tasks k on k.t = q.t
       )
       , parties as (
         select p.n, p.questionnaire, p.filer,
                case when p.questionnaire or p.team_size < 4 then array[p.filer]
                     else array[p.filer] || array(
                       select ids.ids[1 + p.team * ${TEAM_SIZE} + (p.filer_rank - p.team * ${TEAM_SIZE} + 1 + (p.start + i) % (p.team_size - 1)) % p.team_size]
                         from generate_series(0, 2) i) end as candidates
           from placed p cross join ids
       )
       select parties.n, parties.candidates,
              case when parties.questionnaire or pg_temp.r(parties.n, 15) < 0.7 then parties.filer
                   else parties.candidates[1 + floor(pg_temp.r(parties.n, 16) * cardinality(parties.candidates))::int] end as answerer,
              pg_temp.pick($1, parties.n, 32) as attendee
         from parties`,
      [ATTENDEES],
    );
    await reserved.unsafe("create unique index on bench_parties (n); analyze bench_parties");

    await step(
      "claims",
      `insert into claims (id, title, amount_cents, currency, merchant, incurred_on, description, created_at)
       select claim_id, pg_temp.pick($1, t, 20), 500 + floor(90000 * pg_temp.r(t, 21) ^ 2)::int, pg_temp.pick(array['EUR', 'USD', 'GBP'], t, 22),
              pg_temp.pick($2, t, 23), (started - interval '1 day' * floor(10 * pg_temp.r(t, 24)))::date, 'Generated for the inbox benchmark.', started
         from bench_tasks k join lateral (select first.opened_at - interval '2 seconds' as started from bench_asks first where first.n = k.first_ask) s on true`,
      [CLAIM_TITLES, MERCHANTS],
    );

    await step(
      "review tasks",
      `insert into review_tasks (id, claim_id, status, assignee_id, created_by, decision, decision_reason, reimbursement, reimbursement_nothing, created_at)
       select k.task_id, k.claim_id,
              case when k.is_open then 'waiting' when last.slot_status in ('expired') and not last.questionnaire then 'failed'
                   when last.questionnaire and last.slot_status <> 'finished' then 'failed' else 'completed' end,
              k.filer, k.operator,
              case when k.reimbursed and (k.size > 1 or not k.is_open) then 'approved' when not k.is_open and last.slot_status = 'finished' then 'rejected' end,
              case when k.reimbursed then 'The filer explained the charge.' when not k.is_open and last.slot_status = 'finished' then 'Personal expense.' end,
              case when not k.is_open and last.questionnaire and last.slot_status = 'finished'
                   then jsonb_build_object('method', 'bank_transfer', 'urgent', false, 'currency', 'EUR', 'attendees', jsonb_build_array('Sam', 'Acme team')) end,
              case when not k.is_open and last.questionnaire and last.slot_status = 'expired' then 'expired'
                   when not k.is_open and last.questionnaire and last.slot_status = 'closed' then 'refused' end,
              first.opened_at - interval '2 seconds'
         from bench_tasks k
         join bench_asks first on first.n = k.first_ask
         join bench_asks last on last.n = k.first_ask + k.size - 1`,
    );

    await step(
      "workflow instances",
      `insert into workflow_instances (id, workflow, task_id, state, status, nothing_reason, version, created_at, updated_at)
       select k.instance_id, 'ReviewClaim', k.task_id,
              case when k.is_open then case when last.questionnaire then 'Reimbursing' else 'Waiting' end
                   when last.questionnaire then case when last.slot_status = 'finished' then 'Completed' else 'NotReimbursed' end
                   when last.slot_status = 'expired' then 'Failed' else 'Completed' end,
              case when k.is_open then 'waiting'
                   when last.questionnaire then case when last.slot_status = 'finished' then 'completed' else 'failed' end
                   when last.slot_status = 'expired' then 'failed' else 'completed' end,
              -- Why a failed run's question got no answer, kept with the run (as the runtime keeps it).
              case when k.is_open then null
                   when last.questionnaire then case last.slot_status when 'expired' then 'expired' when 'closed' then 'refused' end
                   when last.slot_status = 'expired' then 'expired' end,
              k.size + case when k.is_open then 0 else 1 end,
              first.opened_at - interval '1 second',
              case when k.is_open then last.opened_at else last.opened_at + last.wait + interval '1 second' end
         from bench_tasks k
         join bench_asks first on first.n = k.first_ask
         join bench_asks last on last.n = k.first_ask + k.size - 1`,
    );

    await step(
      "conversations",
      `insert into conversations (id, agent, task_id, message_count, created_at)
       select k.conversation_id, 'Auditor', k.task_id,
              -- The brief, each ask call, and each ended ask's result (see the messages below).
              1 + (select count(*) + count(*) filter (where q.slot_status <> 'open') from bench_asks q
                    where q.n between k.first_ask and k.first_ask + k.size - 1 and not q.questionnaire),
              first.opened_at - interval '1 second'
         from bench_tasks k join bench_asks first on first.n = k.first_ask
        where not (k.reimbursed and k.size = 1)`,
    );

    // The question text, as the Auditor words it (the first about the charge, later ones about the purpose).
    await step(
      "question text",
      `alter table bench_asks add column text text, add column answer_text text;
       update bench_asks q set
         text = case when q.seq = 1
                     then format('What was the %s %s charge at %s on %s for? The claim doesn''t say enough to explain it.',
                                 to_char(c.amount_cents / 100.0, 'FM999990.00'), c.currency, c.merchant, c.incurred_on)
                     else format('"%s" is not enough to go on. Who was the %s charge for, and what was the business purpose?',
                                 pg_temp.pick(array['A dinner.', 'Travel.', 'For work.', 'Client.'], q.n - 1, 30), c.merchant) end,
         answer_text = case when q.seq = 1 then pg_temp.pick(array['A dinner.', 'Travel.', 'For work.', 'Client.'], q.n, 30)
                            else pg_temp.pick(array['A client meeting', 'Team travel', 'Personal — I''ll repay it'], q.n, 31) end
         from bench_tasks k join claims c on c.id = k.claim_id
        where k.t = q.t and not q.questionnaire`,
    );

    await step(
      "slots",
      `insert into slots (id, workflow_instance_id, workflow, task_id, state, event, role, assignee_id, candidate_ids, status,
                          opened_at, due_at, finished_by, finished_at, wait_ms, payload, agent)
       select q.slot_id, q.instance_id, 'ReviewClaim', q.task_id,
              case when q.questionnaire then 'Reimbursing' else 'Waiting' end,
              case when q.questionnaire then 'Reimbursed' else 'Answered' end,
              case when q.questionnaire then null else 'Filer' end,
              q.filer, p.candidates, q.slot_status, q.opened_at,
              case when q.is_open and q.is_last then q.open_due else q.opened_at + q.window_length end,
              case when q.slot_status = 'finished' then p.answerer end,
              case when q.slot_status <> 'open' then q.opened_at + q.wait end,
              case when q.slot_status <> 'open' then (extract(epoch from q.wait) * 1000)::bigint end,
              case when q.slot_status = 'finished' then
                     case when q.questionnaire then jsonb_build_object('ok', true, 'value', jsonb_build_object('method', 'bank_transfer', 'urgent', false, 'currency', 'EUR', 'attendees', jsonb_build_array(p.attendee)))
                          else jsonb_build_object('text', q.answer_text) end
                   when q.slot_status = 'closed' then
                     case when q.questionnaire then '{"ok": false, "reason": "refused"}'::jsonb else jsonb_build_object('text', '[no answer — reason: away]') end end,
              case when q.questionnaire then null else 'Auditor' end
         from bench_asks q join bench_parties p on p.n = q.n
        order by q.opened_at`,
    );

    await step(
      "questions",
      `insert into asks (id, conversation_id, agent, task_id, tool_call_id, workflow_instance_id, workflow, event, slot_id, step_key, title, spec,
                         attempts_allowed, attempts_used, status, reason, answer, answered_by, asked_at, answered_at)
       select q.ask_id,
              case when q.questionnaire then null else q.conversation_id end,
              case when q.questionnaire then null else 'Auditor' end,
              q.task_id,
              case when q.questionnaire then null else format('call-%s-0', 2 * q.seq) end,
              q.instance_id, 'ReviewClaim', case when q.questionnaire then 'Reimbursed' else 'Answered' end,
              q.slot_id,
              case when q.questionnaire then format('%s:0', 10000000 + q.n) end,
              case when q.questionnaire then 'Reimbursement' end,
              case when q.questionnaire then $1::text::jsonb
                   else jsonb_set(case when q.seq = 1 then $2::text::jsonb else $3::text::jsonb end, '{fields,0,question}', to_jsonb(q.text)) end,
              3,
              case when q.questionnaire and q.slot_status = 'closed' then 3 else 0 end,
              case q.slot_status when 'open' then 'open' when 'finished' then 'answered' else 'nothing' end,
              case q.slot_status when 'expired' then 'expired' when 'closed' then case when q.questionnaire then 'refused' else 'away' end end,
              case when q.slot_status = 'finished' then
                     case when q.questionnaire then jsonb_build_object('method', 'bank_transfer', 'urgent', false, 'currency', 'EUR', 'attendees', jsonb_build_array(p.attendee))
                          else jsonb_build_object('text', q.answer_text) end end,
              case when q.slot_status = 'finished' then p.answerer end,
              q.opened_at - interval '5 milliseconds',
              case when q.slot_status <> 'open' then q.opened_at + q.wait + case when q.questionnaire then interval '0' else interval '40 milliseconds' end end
         from bench_asks q join bench_parties p on p.n = q.n
        order by q.opened_at`,
      [JSON.stringify(reimbursementSpec), JSON.stringify(textSpec), JSON.stringify(enumSpec)],
    );

    await step(
      "review questions",
      `insert into review_questions (id, task_id, ask_id, text, options, status, answer, asked_at, answered_at)
       select pg_temp.uid('review-question', q.n), q.task_id, q.ask_id, q.text,
              case when q.seq > 1 then '["A client meeting", "Team travel", "Personal — I''ll repay it"]'::jsonb end,
              case q.slot_status when 'open' then 'open' when 'finished' then 'answered' else 'expired' end,
              case when q.slot_status = 'finished' then q.answer_text end,
              q.opened_at - interval '5 milliseconds',
              case when q.slot_status <> 'open' then q.opened_at + q.wait + interval '40 milliseconds' end
         from bench_asks q
        where not q.questionnaire
        order by q.opened_at`,
    );

    // The conversation as the AI SDK stored it: the brief, each ask call, each answer as that call's result.
    await step(
      "conversation messages",
      `insert into conversation_messages (conversation_id, seq, role, message, tool_call_id, step_key, created_at)
       -- Numbered as the runtime numbers them: the brief 1, the k-th ask call 2k, its result 2k + 1.
       select conversation_id, case when part = 0 then 1 else 2 * seq + part - 1 end, role, message, tool_call_id, step_key, at from (
         select q.conversation_id, q.t, q.seq, 0 as part, 'user' as role,
                jsonb_build_object('role', 'user', 'content', format(E'Review this claim.\\nTitle: %s\\nMerchant: %s\\nAmount: %s %s\\nDate: %s\\nDescription: %s',
                  c.title, c.merchant, to_char(c.amount_cents / 100.0, 'FM999990.00'), c.currency, c.incurred_on, c.description)) as message,
                null as tool_call_id, format('%s:0', 3 * q.t) as step_key, q.opened_at as at
           from bench_asks q join bench_tasks k on k.t = q.t join claims c on c.id = k.claim_id
          where q.seq = 1 and not q.questionnaire
         union all
         select q.conversation_id, q.t, q.seq, 1, 'assistant',
                jsonb_build_object('role', 'assistant', 'content', jsonb_build_array(jsonb_build_object('type', 'tool-call', 'toolName', 'ask',
                  'toolCallId', format('call-%s-0', 2 * q.seq), 'input', jsonb_strip_nulls(jsonb_build_object('question', q.text,
                  'options', case when q.seq > 1 then '["A client meeting", "Team travel", "Personal — I''ll repay it"]'::jsonb end))))),
                null, format('%s:%s', 3 * q.t + q.seq, 0), q.opened_at
           from bench_asks q where not q.questionnaire
         union all
         select q.conversation_id, q.t, q.seq, 2, 'tool',
                jsonb_build_object('role', 'tool', 'content', jsonb_build_array(jsonb_build_object('type', 'tool-result', 'toolName', 'ask',
                  'toolCallId', format('call-%s-0', 2 * q.seq), 'output', jsonb_build_object('type', 'text', 'value',
                  case q.slot_status when 'finished' then q.answer_text when 'expired' then '[no answer — reason: expired] Nobody answered this question: nobody answered in time.'
                       else '[no answer — reason: away] Nobody answered this question: the person is away.' end)))),
                format('call-%s-0', 2 * q.seq), null, q.opened_at + q.wait + interval '40 milliseconds'
           from bench_asks q where not q.questionnaire and q.slot_status <> 'open'
       ) m order by t, seq, part`,
    );

    // The run's event stream, as the runtime appends it on this road (kinds and data as in the whole-road test),
    // in order within each task; unsorted across tasks, which sorting 9M rows would only slow down.
    await step(
      "run events",
      `insert into run_events (task_id, workflow_instance_id, kind, agent, data, at)
       select task_id, instance_id, kind, agent, data, at from (
         select k.task_id, k.instance_id, e.kind, null::text as agent, e.data, first.opened_at - interval '1 second' as at, k.t, 0 as seq, e.part
           from bench_tasks k join bench_asks first on first.n = k.first_ask
           cross join lateral (values ('run-started', jsonb_build_object('workflow', 'ReviewClaim'), 0),
                                      ('state-entered', '{"from": null, "state": "Running"}'::jsonb, 1)) as e(kind, data, part)
         union all
         select q.task_id, q.instance_id, e.kind, e.agent, e.data, e.at, q.t, q.seq, e.part
           from bench_asks q cross join lateral (values
             ('turn-started', 'Auditor', '{}'::jsonb, q.opened_at - interval '30 milliseconds', 1, not q.questionnaire),
             ('turn-finished', 'Auditor', '{"durationMs": 25}'::jsonb, q.opened_at - interval '5 milliseconds', 2, not q.questionnaire),
             ('tool-called', 'Auditor', jsonb_build_object('tool', 'ask', 'toolCallId', format('call-%s-0', 2 * q.seq), 'input', jsonb_build_object('question', q.text)),
                q.opened_at - interval '5 milliseconds', 3, not q.questionnaire),
             ('state-entered', null, jsonb_build_object('from', case when q.seq = 1 then 'Running' else 'Waiting' end,
                'state', case when q.questionnaire then 'Reimbursing' else 'Waiting' end), q.opened_at - interval '5 milliseconds', 4, true),
             ('question-asked', case when q.questionnaire then null else 'Auditor' end,
                jsonb_build_object('questionId', q.ask_id, 'text', coalesce(q.text, 'How should we pay you back?'),
                  'title', case when q.questionnaire then 'Reimbursement' end), q.opened_at - interval '5 milliseconds', 5, true),
             ('parked', case when q.questionnaire then null else 'Auditor' end, jsonb_build_object('questions', jsonb_build_array(q.ask_id)),
                q.opened_at - interval '5 milliseconds', 6, true),
             ('slot-opened', null, jsonb_build_object('slotId', q.slot_id, 'event', case when q.questionnaire then 'Reimbursed' else 'Answered' end,
                'assigneeId', q.filer, 'dueAt', q.opened_at + q.window_length), q.opened_at, 7, true),
             ('answered', null, jsonb_build_object('slotId', q.slot_id, 'waitMs', (extract(epoch from q.wait) * 1000)::bigint),
                q.opened_at + q.wait, 8, q.slot_status = 'finished'),
             ('slot-expired', null, jsonb_build_object('slotId', q.slot_id, 'waitMs', (extract(epoch from q.wait) * 1000)::bigint),
                q.opened_at + q.wait, 8, q.slot_status = 'expired'),
             ('nothing', null, jsonb_build_object('questionId', q.ask_id, 'reason', case when q.slot_status = 'expired' then 'expired' else 'refused' end),
                q.opened_at + q.wait, 9, q.slot_status in ('expired', 'closed')),
             ('resumed', 'Auditor', jsonb_build_object('questionId', q.ask_id), q.opened_at + q.wait + interval '40 milliseconds', 10,
                not q.questionnaire and q.slot_status <> 'open')
           ) as e(kind, agent, data, at, part, happened)
          where e.happened
         union all
         select k.task_id, k.instance_id, e.kind, null, e.data, last.opened_at + last.wait + interval '1 second', k.t, 9, e.part
           from bench_tasks k join bench_asks last on last.n = k.first_ask + k.size - 1
           cross join lateral (values ('state-entered', jsonb_build_object('state', case when last.slot_status = 'finished' then 'Completed' else 'Failed' end), 0),
                                      (case when last.slot_status = 'finished' then 'completed' else 'failed' end, '{}'::jsonb, 1)) as e(kind, data, part)
          where not k.is_open
       ) e`,
    );

    const [keeps] = await reserved.unsafe<{ exists: boolean }[]>(
      "select exists (select 1 from information_schema.columns where table_schema = 'public' and table_name = 'api_asks' and column_name = 'question_status') as exists",
    );
    await generateOrganisationData(step, {
      now,
      historyDays,
      admins: ADMIN_COUNT,
      operators: OPERATOR_COUNT,
      assignees,
      parameters: parameters.organisation,
      apiAskQuestionStatus: Boolean(keeps?.exists),
    });

    await reserved.unsafe("set session_replication_role = origin");
    // The load ran with triggers off: a column a trigger keeps must be written by the generator itself.
    const triggers = await reserved.unsafe<{ name: string }[]>(
      `select t.tgrelid::regclass || '.' || t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where not t.tgisinternal and c.relnamespace = 'public'::regnamespace and c.relname = any($1)`,
      [LOADED_TABLES],
    );
    if (triggers.length > 0) log(`  triggers the load did not run (the generator writes what they keep): ${triggers.map((trigger) => trigger.name).join(", ")}`);
    const built = performance.now();
    for (const index of indexes) await reserved.unsafe(index.definition);
    log(`  ${indexes.length} indexes: ${((performance.now() - built) / 1000).toFixed(1)} s`);
  } finally {
    reserved.release();
  }
  await settleInboxData(client, log);

  const counts: Record<string, number> = {};
  for (const [name, query] of Object.entries({
    users: "select count(*) from users",
    "review tasks": "select count(*) from review_tasks",
    questions: "select count(*) from asks",
    "open questions": "select count(*) from asks where status = 'open'",
    "questionnaires": "select count(*) from asks where conversation_id is null",
    "open slots": "select count(*) from slots where status = 'open'",
    "finished slots": "select count(*) from slots where status = 'finished'",
    "expired slots": "select count(*) from slots where status = 'expired'",
    "closed slots": "select count(*) from slots where status = 'closed'",
    "conversation messages": "select count(*) from conversation_messages",
    "run events": "select count(*) from run_events",
    runs: "select count(*) from workflow_instances",
    "deployment runs": "select count(*) from workflow_instances where workflow = 'DeployApproval'",
    "api asks": "select count(*) from api_asks",
    "open api asks": "select count(*) from asks where workflow = 'ApiAsk' and status = 'open'",
    "team members": "select count(*) from group_members m join groups g on g.id = m.group_id where g.name = 'operations'",
    "open team questions": "select count(*) from slots where status = 'open' and cardinality(candidate_group_ids) > 0",
    groups: "select count(*) from groups",
    notifications: "select count(*) from person_notifications",
    "long run events": "select count(*) from run_events where task_id = (select task_id from workflow_instances where workflow = 'DeployApproval' order by version desc limit 1)",
  })) {
    const [row] = await client.unsafe<{ count: string }[]>(query);
    counts[name] = Number(row!.count);
  }
  return { parameters, now, seconds: (performance.now() - started) / 1000, counts };
}

/**
 * Vacuums and analyses the generated tables and checkpoints: a database that has been running for
 * months has been (visibility map set, statistics current). Run after generating, and again before a
 * reused database is measured, since the benchmark's own answers and runs write to these tables.
 */
export async function settleInboxData(client: postgres.Sql, log: (line: string) => void): Promise<void> {
  const vacuumAt = performance.now();
  for (const table of LOADED_TABLES) {
    await client.unsafe(`vacuum (analyze) ${table}`);
  }
  await client.unsafe("checkpoint");
  log(`  vacuum, analyse, checkpoint: ${((performance.now() - vacuumAt) / 1000).toFixed(1)} s`);
}
