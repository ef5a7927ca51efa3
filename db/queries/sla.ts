import { getTableName, type SQL, sql } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { asks, groups, type NothingReason, slots, users } from "../schema";
import { a, bareName, s } from "./read-aliases";

/** The other tables these statements name by alias: a cursor's slot, the people and the teams. */
const c = alias(slots, "c");
const u = alias(users, "u");
const g = alias(groups, "g");

/** Which open slots to show; every filter is optional. */
export interface OpenSlotFilters {
  workflow?: string;
  /** The agent whose question the slot takes the answer for. */
  agent?: string;
  /** The user id the slot is assigned to. */
  assigneeId?: string;
  /** Only slots already past their due time. */
  breachedOnly?: boolean;
  /**
   * Only slots whose clock reads at risk (lib/sla-clock: due within the hour, or less than a quarter
   * of the window left) — give or take a second at the edges, where the page reads each clock itself.
   */
  atRiskOnly?: boolean;
}

/** One open wait, as the admins' outstanding-work table shows it. */
export interface OpenSlotRow {
  id: string;
  workflow: string;
  state: string;
  event: string;
  role: string | null;
  taskId: string;
  assigneeId: string | null;
  assigneeName: string | null;
  candidateCount: number;
  /** The teams it was put to, by name. */
  teams: string[];
  /** The member who took it ("I'll take it"), while they hold it. */
  claimedByName: string | null;
  openedAt: Date;
  dueAt: Date | null;
  /** The question the slot takes the answer for, when there is one. */
  questionId: string | null;
  headline: string | null;
  agent: string | null;
}

/** The names of the teams a slot (`s`) was put to, as a text[] expression. */
const TEAMS = sql`array(select ${g.name} from ${groups} ${g} where ${g.id} = any(${s.candidateGroupIds}) order by ${g.name})`;

/** A text[] as the driver hands it back: an array, or its text form. */
function textArray(value: string[] | string | null): string[] {
  if (Array.isArray(value)) return value;
  return (value ?? "").replace(/^\{|\}$/g, "").split(",").filter(Boolean).map((name) => name.replace(/^"|"$/g, ""));
}

function toOptionalDate(value: Date | string | null): Date | null {
  return value === null ? null : toDate(value);
}

function toNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

// The question a slot takes the answer for (`slotQuestion`, a question's columns and its headline): the first one linked to it.
const slotQuestion = alias(asks, "q");

/**
 * The SLA period's names: its `history` of waits (`h`, each a slot's columns with its person, flags
 * and the like), the waits `counted`, the `groups_numbers` worked out from them, and the waits that
 * `ended` without an answer (a slot's columns, with its question's reason: `endedQuestion`).
 */
const history = alias(slots, "history");
const h = alias(slots, "h");
const counted = alias(slots, "counted");
const groupsNumbers = alias(slots, "groups_numbers");
const ended = alias(slots, "ended");
const endedQuestion = alias(asks, "ended");
const SLOT_QUESTION = sql`left join lateral (
    select ${a.id}, coalesce(${a.title}, ${a.spec} #>> '{fields,0,question}') as headline, ${a.agent}
    from ${asks} ${a} where ${a.slotId} = ${s.id} order by ${a.askedAt}, ${a.id} limit 1
  ) ${slotQuestion} on true`;

// Open slots in the order the outstanding-work table lists them (no deadline last), as the
// slots_open_due_order_idx index holds them.
const DUE_ORDER = sql`coalesce(${s.dueAt}, 'infinity'::timestamptz)`;

/**
 * Every open slot across workflows (soonest due first, then oldest), filtered; at most `limit`, after
 * the slot `after` when given (the last one of the previous page) — read in the index's order, so a
 * page costs about its own length however many slots are open: all slots' due order, or the
 * workflow's, the agent's or the assignee's (slots_open_workflow_due_idx, slots_open_agent_due_idx,
 * slots_open_assignee_idx), however few of the open slots are theirs.
 */
export async function listOpenSlots(db: Db, filters: OpenSlotFilters, now: Date, limit = 500, after?: string | null): Promise<OpenSlotRow[]> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const conditions: SQL[] = [sql`${s.status} = 'open'`];
  if (filters.workflow) conditions.push(sql`${s.workflow} = ${filters.workflow}`);
  // The slot's own asker (kept on it as it opens, and for older slots by migration 0007): a walk of the agent's stretch of an index.
  if (filters.agent) conditions.push(sql`${s.agent} = ${filters.agent}`);
  if (filters.assigneeId) conditions.push(sql`${s.assigneeId} = ${filters.assigneeId}`);
  if (filters.breachedOnly) conditions.push(sql`${DUE_ORDER} <= ${at}`);
  if (filters.atRiskOnly) {
    // A second's slack either way: the page reads the clock of each row in milliseconds.
    conditions.push(sql`${DUE_ORDER} > ${at} - interval '1 second' and ${s.dueAt} is not null
      and (${s.dueAt} < ${at} + interval '1 hour 1 second' or (${s.dueAt} - ${at}) * 4 < (${s.dueAt} - ${s.openedAt}) + interval '4 seconds')`);
  }
  if (after) {
    conditions.push(
      sql`(${DUE_ORDER}, ${s.openedAt}, ${s.id}) > (select coalesce(${c.dueAt}, 'infinity'::timestamptz), ${c.openedAt}, ${c.id} from ${slots} ${c} where ${c.id} = ${after}::uuid)`,
    );
  }
  const rows = await queryRows<{
    id: string;
    workflow: string;
    state: string;
    event: string;
    role: string | null;
    task_id: string;
    assignee_id: string | null;
    assignee_name: string | null;
    candidate_count: number | string;
    teams: string[] | string | null;
    claimed_by_name: string | null;
    opened_at: Date | string;
    due_at: Date | string | null;
    question_id: string | null;
    headline: string | null;
    agent: string | null;
  }>(
    db,
    sql`select ${s.id} as id, ${s.workflow} as workflow, ${s.state} as state, ${s.event} as event, ${s.role} as role, ${s.taskId} as task_id,
               ${s.assigneeId} as assignee_id, ${u.name} as assignee_name,
               cardinality(${s.candidateIds}) as candidate_count, ${TEAMS} as teams,
               (select ${users.name} from ${users} where ${users.id} = ${s.claimedBy}) as claimed_by_name,
               ${s.openedAt} as opened_at, ${s.dueAt} as due_at, ${slotQuestion.id} as question_id, ${slotQuestion}.headline as headline,
               coalesce(${slotQuestion.agent}, ${s.agent}) as agent
          from ${slots} ${s} left join ${users} ${u} on ${u.id} = ${s.assigneeId}
          ${SLOT_QUESTION}
         where ${sql.join(conditions, sql` and `)}
         order by ${DUE_ORDER}, ${s.openedAt}, ${s.id}
         limit ${limit}`,
  );
  return rows.map((row) => ({
    id: row.id,
    workflow: row.workflow,
    state: row.state,
    event: row.event,
    role: row.role,
    taskId: row.task_id,
    assigneeId: row.assignee_id,
    assigneeName: row.assignee_name,
    candidateCount: Number(row.candidate_count),
    teams: textArray(row.teams),
    claimedByName: row.claimed_by_name,
    openedAt: toDate(row.opened_at),
    dueAt: toOptionalDate(row.due_at),
    questionId: row.question_id,
    headline: row.headline,
    agent: row.agent,
  }));
}

/** Someone the outstanding-work table can be filtered to. */
export interface AssigneeChoice {
  id: string;
  name: string;
  email: string;
}

/**
 * The people the assignee filter's words name: the one with that id or that email (any case), else
 * those whose name contains the words (any case, literally), by name — at most `limit`. The filter is
 * typed rather than chosen from a list of everyone: a thousand people made a list of 190 KB.
 */
export async function findAssigneeChoices(db: Db, words: string, limit = 6): Promise<AssigneeChoice[]> {
  const text = words.trim();
  if (!text) return [];
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
  return queryRows<AssigneeChoice>(
    db,
    sql`select ${users.id} as id, ${users.name} as name, ${users.email} as email from ${users}
         where ${isId ? sql`${users.id} = ${text}::uuid` : sql`lower(${users.email}) = lower(${text}) or position(lower(${text}) in lower(${users.name})) > 0`}
         order by lower(${users.email}) = lower(${text}) desc, ${users.name}, ${users.id}
         limit ${limit}`,
  );
}

/** What the open-slot filters can choose from: the workflows that have waited and the agents that have asked anything. */
export async function listSlaFilterChoices(db: Db): Promise<{ workflows: string[]; agents: string[] }> {
  const [workflows, agents] = await Promise.all([distinctAlongIndex(db, slots.workflow), distinctAlongIndex(db, asks.agent)]);
  return { workflows, agents };
}

/**
 * The distinct values of an indexed column, in order: a walk from one value to the next along its
 * index (a loose index scan), a step per value however many rows there are.
 */
async function distinctAlongIndex(db: Db, column: PgColumn): Promise<string[]> {
  // Named bare (not table-qualified): the statement reads the table twice, the second time as `next`.
  const from = sql.identifier(getTableName(column.table));
  const value = sql.identifier(column.name);
  const rows = await queryRows<{ value: string }>(
    db,
    sql`with recursive names(value) as (
          (select ${value} from ${from} where ${value} is not null order by ${value} limit 1)
          union all
          select (select next.${value} from ${from} next where next.${value} > names.value order by next.${value} limit 1)
            from names where names.value is not null
        )
        select value from names where value is not null order by value`,
  );
  return rows.map((row) => row.value);
}

/** How one group's finished and expired slots fared against their deadlines. */
export interface SlaNumbers {
  /** Slots that finished (answered) or expired in the period. */
  total: number;
  /** Answered ones. */
  answered: number;
  /** Answered before their due time (or without one). */
  withinSla: number;
  /** Expired, or answered after their due time. */
  breaches: number;
  /** Time to answer, in milliseconds, over the answered ones (percentile_cont); null when none was answered. */
  p50: number | null;
  p90: number | null;
  p95: number | null;
}

/** A group of SLA numbers: the whole period, or one workflow, agent or person. */
export interface SlaGroup extends SlaNumbers {
  /** The workflow's or agent's name, or the person's id; null for "no agent" (a flow's own question). */
  key: string | null;
  /** What screens call it: the person's name for a person. */
  label: string | null;
}

/** SLA numbers for a period, overall and by workflow, by agent, by person and by team. */
export interface SlaReport {
  overall: SlaNumbers;
  byWorkflow: SlaGroup[];
  byAgent: SlaGroup[];
  /** By who answered — or, for an expired slot, whom it was waiting on. */
  byPerson: SlaGroup[];
  /** By each team (group) the wait was put to; a wait put to two teams counts for both. */
  byTeam: SlaGroup[];
}

function periodCondition(since: Date | null, now: Date): SQL {
  const until = sql`${s.finishedAt} <= ${now.toISOString()}::timestamptz`;
  return since ? sql`${s.finishedAt} >= ${since.toISOString()}::timestamptz and ${until}` : until;
}

const EMPTY: SlaNumbers = { total: 0, answered: 0, withinSla: 0, breaches: 0, p50: null, p90: null, p95: null };

/**
 * One group's SLA numbers, over `counted`'s rows (each wait's flags worked out once). The times to
 * answer are exact percentiles (`percentile_cont`) of the group's answered waits, collected by hash
 * aggregation and each group's sorted on its own: an ordered-set aggregate over the rows would have
 * every grouping sort all of the period's rows by its key first (measured over a week of 235,000
 * waits: 650–930 ms against 210–410 ms).
 */
const NUMBERS = sql`count(*) as total,
               count(*) filter (where answered) as answered,
               count(*) filter (where within_sla) as within_sla,
               count(*) filter (where breach) as breaches,
               (select percentile_cont(array[0.5, 0.9, 0.95]) within group (order by w)
                  from unnest(array_agg(${counted.waitMs}) filter (where answered)) as w) as percentiles`;

/** One finished or expired wait: "<question> waited 15h for Sam Rivera". */
export interface LongWaitRow {
  slotId: string;
  workflow: string;
  status: "finished" | "expired";
  waitMs: number;
  finishedAt: Date;
  questionId: string | null;
  headline: string | null;
  /** Who answered, or whom an expired slot was waiting on; null when it waited on candidates. */
  personName: string | null;
  candidateCount: number;
  /** The teams it was put to, by name. */
  teams: string[];
}

/** One wait that ended without an answer: "<question> ended with nothing (away) for Sam Rivera". */
export interface EndedWithoutAnswerRow {
  slotId: string;
  workflow: string;
  reason: NothingReason;
  finishedAt: Date;
  questionId: string | null;
  headline: string | null;
  /** Whom it waited on: the assignee; null when it waited on candidates or a team. */
  personName: string | null;
}

/** The waits of a period that ended without an answer: how many for each reason, and the latest of them. */
export interface EndedWithoutAnswer {
  /** Each reason with its count, the most frequent first; reasons that did not happen are left out. */
  byReason: { reason: NothingReason; count: number }[];
  latest: EndedWithoutAnswerRow[];
}

/** A period's recorded history as the SLA page shows it. */
export interface SlaPeriodHistory {
  report: SlaReport;
  /** The longest waits, longest first. */
  longest: LongWaitRow[];
  /** Answered waits by how long they waited, in the bars the bounds make (`bounds.length + 1` counts). */
  waits: number[];
  unanswered: EndedWithoutAnswer;
}

/**
 * Why a wait ended without an answer: its question's reason (refused, away, unavailable,
 * non-interactive, cancelled), else what the slot says (it expired, or its state was left).
 */
const ENDED_REASON = sql`coalesce(${slotQuestion.reason}, case ${h.status} when 'expired' then 'expired' when 'cancelled' then 'cancelled' else 'refused' end)`;

/** The question a wait (`h`) took the answer for: the first one linked to it. */
const HISTORY_QUESTION = sql`left join lateral (
    select ${a.id}, coalesce(${a.title}, ${a.spec} #>> '{fields,0,question}') as headline, ${a.reason}
    from ${asks} ${a} where ${a.slotId} = ${h.id} order by ${a.askedAt}, ${a.id} limit 1
  ) ${slotQuestion} on true`;

/** A JSON value as the driver hands it back: parsed, or its text. */
function fromJson<T>(value: T | string | null): T | null {
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

/**
 * Everything the SLA page shows of a period's history (slots finished or expired from `since` to
 * `now`; `since` null for all time), in one statement that reads the period's ended waits once, from
 * `slots_ended_idx`, which holds what the numbers need (index-only): the numbers overall and by
 * workflow, agent, person and team (grouping sets; times to answer as percentiles, never an
 * average), the `longest` longest waits, answered waits in the bars `bounds` (ms) make, and the
 * waits that ended without an answer by reason with the `latest` latest of them. Exact: every wait of
 * the period is read and ordered, so the page reads this at most once a minute (lib/sla-history.ts).
 */
export async function readSlaPeriod(
  db: Db,
  since: Date | null,
  now: Date,
  options: { bounds: readonly number[]; longest?: number; latest?: number },
): Promise<SlaPeriodHistory> {
  type Json<T> = T[] | string | null;
  const [row] = await queryRows<{
    report: Json<{
      by_workflow: number;
      by_agent: number;
      by_person: number;
      by_team: number;
      workflow: string | null;
      agent: string | null;
      person_id: string | null;
      person_name: string | null;
      team_id: string | null;
      team_name: string | null;
      total: number;
      answered: number;
      within_sla: number;
      breaches: number;
      p50: number | null;
      p90: number | null;
      p95: number | null;
    }>;
    longest: Json<{
      id: string;
      workflow: string;
      status: "finished" | "expired";
      wait_ms: number;
      finished_at: number;
      question_id: string | null;
      headline: string | null;
      person_name: string | null;
      candidate_count: number;
      teams: string[] | null;
    }>;
    waits: Json<{ bucket: number; count: number }>;
    reasons: Json<{ reason: NothingReason; count: number }>;
    latest: Json<{ id: string; workflow: string; reason: NothingReason; finished_at: number; question_id: string | null; headline: string | null; person_name: string | null }>;
  }>(
    db,
    // Materialized: read once, from the index; the grouping then sorts the period's rows, rather than walking an index of every slot in workflow order.
    sql`with ${history} as materialized (
          select ${s.id}, ${s.workflow}, ${s.status}, ${s.waitMs}, ${s.finishedAt},
                 ${s.assigneeId}, coalesce(${s.finishedBy}, ${s.assigneeId}) as person, ${s.agent},
                 ${s.candidateGroupIds},
                 ${s.status} = 'finished' as answered,
                 ${s.status} = 'finished' and (${s.dueAt} is null or ${s.finishedAt} <= ${s.dueAt}) as within_sla,
                 ${s.status} = 'expired' or (${s.dueAt} is not null and ${s.finishedAt} > ${s.dueAt}) as breach
            from ${slots} ${s}
           where ${s.status} <> 'open' and ${periodCondition(since, now)}
        ), ${groupsNumbers} as (
          select 1 - grouping(${counted.workflow}) as by_workflow, 1 - grouping(${counted.agent}) as by_agent, 1 - grouping(${counted}.person) as by_person, 0 as by_team,
                 ${counted.workflow}, ${counted.agent}, ${counted}.person, null::uuid as team_id, ${NUMBERS}
            from (select ${history.workflow}, ${history.agent}, ${history}.person, answered, within_sla, breach, ${history.waitMs} from ${history}
                   where ${history.status} in ('finished', 'expired')) ${counted}
           group by grouping sets ((), (${counted.workflow}), (${counted.agent}), (${counted}.person))
          union all
          select 0, 0, 0, 1, null, null, null, team_id, ${NUMBERS}
            from (select ${history.candidateGroupIds}, answered, within_sla, breach, ${history.waitMs} from ${history}
                   where ${history.status} in ('finished', 'expired') and cardinality(${history.candidateGroupIds}) > 0) ${counted}
            cross join lateral unnest(${counted.candidateGroupIds}) as team_id
           group by team_id
        ), groups_report as (
          select by_workflow, by_agent, by_person, by_team, ${groupsNumbers.workflow} as workflow, ${groupsNumbers.agent} as agent, ${groupsNumbers}.person as person_id,
                 (select ${users.name} from ${users} where ${users.id} = ${groupsNumbers}.person) as person_name,
                 team_id, (select ${groups.name} from ${groups} where ${groups.id} = team_id) as team_name, total, answered, within_sla, breaches,
                 percentiles[1] as p50, percentiles[2] as p90, percentiles[3] as p95
            from ${groupsNumbers}
        ), ${ended} as materialized (
          select ${h.id}, ${h.workflow}, ${h.finishedAt}, ${h.assigneeId}, ${slotQuestion.id} as question, ${slotQuestion}.headline as headline, ${ENDED_REASON} as ${bareName(asks.reason)}
            from ${history} ${h} ${HISTORY_QUESTION}
           where ${h.status} in ('expired', 'closed', 'cancelled')
        )
        select (select json_agg(groups_report) from groups_report) as report,
               (select json_agg(l) from (
                  select ${h.id} as id, ${h.workflow} as workflow, ${h.status} as status, ${h.waitMs}::float8 as wait_ms, extract(epoch from ${h.finishedAt}) * 1000 as finished_at,
                         ${slotQuestion.id} as question_id, ${slotQuestion}.headline as headline, ${u.name} as person_name, cardinality(${s.candidateIds}) as candidate_count,
                         array(select ${g.name} from ${groups} ${g} where ${g.id} = any(${h.candidateGroupIds}) order by ${g.name}) as teams
                    from (select * from ${history} where ${history.status} in ('finished', 'expired') and ${history.waitMs} is not null
                           order by ${history.waitMs} desc, ${history.id} limit ${options.longest ?? 10}) ${h}
                    join ${slots} ${s} on ${s.id} = ${h.id}
                    left join ${users} ${u} on ${u.id} = ${h}.person
                    ${HISTORY_QUESTION}
                   order by ${h.waitMs} desc, ${h.id}) l) as longest,
               (select json_agg(b) from (
                  select width_bucket(${history.waitMs}::float8, ${boundsArray(options.bounds)}) as bucket, count(*) as count
                    from ${history} where ${history.status} = 'finished' and ${history.waitMs} is not null group by 1) b) as waits,
               (select json_agg(c) from (select ${endedQuestion.reason} as reason, count(*) as count from ${ended} group by ${endedQuestion.reason}
                  order by count(*) desc, ${endedQuestion.reason}) c) as reasons,
               (select json_agg(e) from (
                  select ${ended.id} as id, ${ended.workflow} as workflow, ${endedQuestion.reason} as reason, extract(epoch from ${ended.finishedAt}) * 1000 as finished_at,
                         ${ended}.question as question_id, ${ended}.headline as headline,
                         (select ${u.name} from ${users} ${u} where ${u.id} = ${ended.assigneeId}) as person_name
                    from ${ended} order by ${ended.finishedAt} desc, ${ended.id} limit ${options.latest ?? 10}) e) as latest`,
  );
  const report: SlaReport = { overall: EMPTY, byWorkflow: [], byAgent: [], byPerson: [], byTeam: [] };
  for (const group of fromJson(row!.report) ?? []) {
    const numbers: SlaNumbers = {
      total: Number(group.total),
      answered: Number(group.answered),
      withinSla: Number(group.within_sla),
      breaches: Number(group.breaches),
      p50: toNumber(group.p50),
      p90: toNumber(group.p90),
      p95: toNumber(group.p95),
    };
    if (Number(group.by_workflow)) report.byWorkflow.push({ ...numbers, key: group.workflow, label: group.workflow });
    else if (Number(group.by_agent)) report.byAgent.push({ ...numbers, key: group.agent, label: group.agent });
    else if (Number(group.by_person)) report.byPerson.push({ ...numbers, key: group.person_id, label: group.person_name });
    else if (Number(group.by_team)) report.byTeam.push({ ...numbers, key: group.team_id, label: group.team_name });
    else report.overall = numbers;
  }
  const byBreachesThenName = (a: SlaGroup, b: SlaGroup) => b.breaches - a.breaches || (a.label ?? "").localeCompare(b.label ?? "");
  report.byWorkflow.sort(byBreachesThenName);
  report.byAgent.sort(byBreachesThenName);
  report.byPerson.sort(byBreachesThenName);
  report.byTeam.sort(byBreachesThenName);
  return {
    report,
    longest: (fromJson(row!.longest) ?? []).map((wait) => ({
      slotId: wait.id,
      workflow: wait.workflow,
      status: wait.status,
      waitMs: Number(wait.wait_ms),
      finishedAt: new Date(Number(wait.finished_at)),
      questionId: wait.question_id,
      headline: wait.headline,
      personName: wait.person_name,
      candidateCount: Number(wait.candidate_count),
      teams: wait.teams ?? [],
    })),
    waits: countsFrom(fromJson(row!.waits) ?? [], options.bounds),
    unanswered: {
      byReason: (fromJson(row!.reasons) ?? []).map((reason) => ({ reason: reason.reason, count: Number(reason.count) })),
      latest: (fromJson(row!.latest) ?? []).map((ended) => ({
        slotId: ended.id,
        workflow: ended.workflow,
        reason: ended.reason,
        finishedAt: new Date(Number(ended.finished_at)),
        questionId: ended.question_id,
        headline: ended.headline,
        personName: ended.person_name,
      })),
    },
  };
}

/** SLA numbers over the recorded slot history (slots finished or expired from `since` to `now`; `since` null for all time): {@link readSlaPeriod}'s. */
export async function readSlaReport(db: Db, since: Date | null, now: Date): Promise<SlaReport> {
  return (await readSlaPeriod(db, since, now, { bounds: [] })).report;
}

/** The longest waits of a period, longest first: {@link readSlaPeriod}'s. */
export async function listLongestWaits(db: Db, since: Date | null, now: Date, limit = 10): Promise<LongWaitRow[]> {
  return (await readSlaPeriod(db, since, now, { bounds: [], longest: limit })).longest;
}

/**
 * The waits that ended from `since` to `now` without an answer — expired, closed with nothing, or
 * cancelled when their state was left — by reason, and the `limit` latest: {@link readSlaPeriod}'s.
 */
export async function readEndedWithoutAnswer(db: Db, since: Date | null, now: Date, limit = 10): Promise<EndedWithoutAnswer> {
  return (await readSlaPeriod(db, since, now, { bounds: [], latest: limit })).unanswered;
}

/** Counts per bar for bounds `bounds` (ascending, ms): `bounds.length + 1` counts. */
function countsFrom(rows: { bucket: number | string; count: number | string }[], bounds: readonly number[]): number[] {
  const counts = Array.from({ length: bounds.length + 1 }, () => 0);
  for (const row of rows) counts[Number(row.bucket)] = Number(row.count);
  return counts;
}

function boundsArray(bounds: readonly number[]): SQL {
  return sql`${`{${bounds.join(",")}}`}::float8[]`;
}

/**
 * Open slots by how long they have been open, in the bars `bounds` (ms) make: one pass over the open
 * slots' index counting those younger than each bound (plain comparisons, no arithmetic per row).
 */
export async function countOpenSlotsByAge(db: Db, bounds: readonly number[], now: Date): Promise<number[]> {
  const younger = bounds.map(
    (bound, index) => sql`count(*) filter (where ${slots.openedAt} > ${now.toISOString()}::timestamptz - ${bound}::float8 * interval '1 millisecond') as ${sql.raw(`younger_${index}`)}`,
  );
  const [row] = await queryRows<Record<string, number | string>>(db, sql`select ${sql.join(younger, sql`, `)}, count(*) as total from ${slots} where ${slots.status} = 'open'`);
  const below = [...bounds.map((_, index) => Number(row![`younger_${index}`])), Number(row!.total)];
  return below.map((count, index) => count - (below[index - 1] ?? 0));
}

/** Answered slots of a period by how long they waited for their answer, in the bars `bounds` (ms) make: {@link readSlaPeriod}'s. */
export async function countAnsweredByWait(db: Db, bounds: readonly number[], since: Date | null, now: Date): Promise<number[]> {
  return (await readSlaPeriod(db, since, now, { bounds })).waits;
}

/** The open question of each of `slotIds` that is still open (a slot whose wait has no question, or is over, is left out). */
export async function openQuestionsOfSlots(db: Db, slotIds: readonly string[]): Promise<{ slotId: string; questionId: string }[]> {
  if (slotIds.length === 0) return [];
  const rows = await queryRows<{ slot_id: string; question_id: string }>(
    db,
    sql`select distinct on (${s.id}) ${s.id} as slot_id, ${a.id} as question_id
          from ${slots} ${s} join ${asks} ${a} on ${a.slotId} = ${s.id} and ${a.status} = 'open' and ${a.reason} is null
         where ${s.id} in (${sql.join(slotIds.map((id) => sql`${id}::uuid`), sql`, `)}) and ${s.status} = 'open'
         order by ${s.id}, ${a.askedAt} desc`,
  );
  return rows.map((row) => ({ slotId: row.slot_id, questionId: row.question_id }));
}
