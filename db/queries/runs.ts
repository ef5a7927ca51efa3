import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { asks, groups, RUN_STATES, type RunState, type RunStatus, slots, users, workflowInstances } from "../schema";
import { type Db, queryRows } from "../client";
import type { QuestionSpec } from "../types/question-spec";
import { a, s } from "./read-aliases";

/** The runs, people and teams these statements name by alias. */
const w = alias(workflowInstances, "w");
const w2 = alias(workflowInstances, "w2");
const u = alias(users, "u");
const d = alias(users, "d");
const assignee = alias(users, "assignee");
const holder = alias(users, "holder");
const g = alias(groups, "g");

export { RUN_STATES, type RunState };

/** One run as the operators' list and the run page show it, whatever its workflow. */
export interface RunRow {
  taskId: string;
  workflow: string;
  state: string;
  status: RunStatus;
  /** The list's filter category (see {@link RUN_STATES}). */
  runState: RunState;
  /** Why a question got no answer, for a run that failed because one did not (away, expired, refused, non-interactive). */
  nothingReason: string | null;
  lastError: string | null;
  startedAt: Date;
  updatedAt: Date;
  /** Whom an open wait is on, by name ("any candidate" when nobody is named); null when nothing waits on a person. */
  waitingOn: string | null;
}

/**
 * Why a run over this task that is failing now got no answer, if a question is why: the latest of
 * its questions that ended with nothing, else a wait of it that expired. The statements that set a
 * run `failed` keep this in `nothing_reason` (migration 0017 filled it in for runs that had failed),
 * so lists read a run's state by index instead of working it out for every run.
 */
export function nothingReasonOfRun(taskId: string): SQL {
  return sql`coalesce((select ${a.reason} from ${asks} ${a} where ${a.taskId} = ${taskId} and ${a.status} = 'nothing' order by ${a.answeredAt} desc nulls last limit 1),
                      (select 'expired' from ${slots} ${s} where ${s.taskId} = ${taskId} and ${s.status} = 'expired' limit 1))`;
}

type Row = {
  task_id: string;
  workflow: string;
  state: string;
  status: RunStatus;
  run_state: RunState;
  nothing_reason: string | null;
  last_error: string | null;
  created_at: string | Date;
  updated_at: string | Date;
  waiting_on: string | null;
};

// One definition of a listed run for the list and the run page; whom it waits on is one probe of `slots_task_idx`:
// its assignee, else whoever took it ("Sam Rivera (took it)"), else those it is put to ("Sam Rivera or the team finance",
// "any of 3 people").
const RUN_COLUMNS = sql`${w.taskId} as task_id, ${w.workflow} as workflow, ${w.state} as state, ${w.status} as status, ${w.runState} as run_state,
  ${w.nothingReason} as nothing_reason, ${w.lastError} as last_error, ${w.createdAt} as created_at, ${w.updatedAt} as updated_at,
  (select coalesce(${assignee.name}, ${holder.name} || ' (took it)',
      nullif(concat_ws(' or ',
        case when cardinality(${s.candidateIds}) = 1 then (select ${u.name} from ${users} ${u} where ${u.id} = ${s.candidateIds}[1])
             when cardinality(${s.candidateIds}) > 1 then 'any of ' || cardinality(${s.candidateIds}) || ' people' end,
        case when cardinality(${s.candidateGroupIds}) > 0 then (select case when count(*) > 1 then 'the teams ' else 'the team ' end || string_agg(${g.name}, ', ' order by ${g.name})
                                                                  from ${groups} ${g} where ${g.id} = any(${s.candidateGroupIds})) end), ''),
      'nobody')
    from ${slots} ${s} left join ${users} ${assignee} on ${assignee.id} = ${s.assigneeId} left join ${users} ${holder} on ${holder.id} = ${s.claimedBy}
    where ${s.taskId} = ${w.taskId} and ${s.status} = 'open' order by ${s.openedAt} limit 1) as waiting_on`;

function toRunRow(row: Row): RunRow {
  return {
    taskId: row.task_id,
    workflow: row.workflow,
    state: row.state,
    status: row.status,
    runState: row.run_state,
    nothingReason: row.run_state === "nothing" ? row.nothing_reason : null,
    lastError: row.last_error,
    startedAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    waitingOn: row.waiting_on,
  };
}

function workflowCondition(workflows: readonly string[] | undefined): SQL | undefined {
  if (!workflows) return undefined;
  return workflows.length === 1
    ? sql`${w.workflow} = ${workflows[0]}`
    : sql`${w.workflow} = any(${`{${workflows.map((name) => `"${name.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`}::text[])`;
}

/**
 * Runs of these workflows (all when unset), newest first, optionally in one state, with whom each
 * waits on (one query, reading one index newest first). `after` (a task id from a previous page)
 * continues with the runs older than that task's run; an unknown one continues with nothing.
 */
export async function listRuns(
  db: Db,
  options: { workflows?: readonly string[]; state?: RunState; limit?: number; after?: string } = {},
): Promise<RunRow[]> {
  const conditions: SQL[] = [];
  const workflow = workflowCondition(options.workflows);
  if (workflow) conditions.push(workflow);
  if (options.state) conditions.push(sql`${w.runState} = ${options.state}`);
  if (options.after) {
    conditions.push(
      sql`(${w.createdAt}, ${w.taskId}) < (select ${w2.createdAt}, ${w2.taskId} from ${workflowInstances} ${w2} where ${w2.taskId} = ${options.after}::uuid order by ${w2.createdAt} limit 1)`,
    );
  }
  const filter: SQL = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const rows = await queryRows<Row>(
    db,
    sql`select ${RUN_COLUMNS} from ${workflowInstances} ${w} ${filter} order by ${w.createdAt} desc, ${w.taskId} desc limit ${options.limit ?? 200}`,
  );
  return rows.map(toRunRow);
}

/** Counts above this are shown as "more than" ("1,000+", as the inbox's): counting further reads an index entry per run on every Runs view. */
export const RUN_COUNT_CAP = 1_000;

/** How many runs are in one state: exact up to {@link RUN_COUNT_CAP}; above it, the cap with `atLeast`. */
export interface RunCount {
  count: number;
  atLeast: boolean;
}

/**
 * How many runs of these workflows (all when unset) are in each state (every state present, zero
 * when none). Each state's count reads its index up to one entry past {@link RUN_COUNT_CAP} and no further,
 * so the counts cost the same with a thousand runs or a million.
 */
export async function countRunsByState(db: Db, options: { workflows?: readonly string[] } = {}): Promise<Record<RunState, RunCount>> {
  const workflow = workflowCondition(options.workflows);
  const states = sql.join(
    RUN_STATES.map(
      (state) =>
        sql`select ${state}::text as run_state, (select count(*) from (select 1 from ${workflowInstances} ${w}
              where ${w.runState} = ${state} ${workflow ? sql`and ${workflow}` : sql``} limit ${RUN_COUNT_CAP + 1}) capped) as count`,
    ),
    sql` union all `,
  );
  const rows = await queryRows<{ run_state: RunState; count: number | string }>(db, states);
  const counts = Object.fromEntries(RUN_STATES.map((state) => [state, { count: 0, atLeast: false }])) as Record<RunState, RunCount>;
  for (const row of rows) {
    const count = Number(row.count);
    counts[row.run_state] = { count: Math.min(count, RUN_COUNT_CAP), atLeast: count > RUN_COUNT_CAP };
  }
  return counts;
}

/** The (first) run over a task, or undefined when no run is over it. */
export async function findRun(db: Db, taskId: string): Promise<RunRow | undefined> {
  const [row] = await queryRows<Row>(db, sql`select ${RUN_COLUMNS} from ${workflowInstances} ${w} where ${w.taskId} = ${taskId} order by ${w.createdAt} limit 1`);
  return row ? toRunRow(row) : undefined;
}

/** The people a start form may offer (assignees), by name, with whether they are away. */
export async function listPeopleToAsk(db: Db): Promise<{ id: string; name: string; away: boolean; delegateName: string | null }[]> {
  const rows = await queryRows<{ id: string; name: string; away: boolean; delegate_name: string | null }>(
    db,
    // The delegate counts only while they can take questions themselves.
    sql`select ${u.id} as id, ${u.name} as name, ${u.away} as away, ${d.name} as delegate_name
          from ${users} ${u} left join ${users} ${d} on ${d.id} = ${u.delegateId} and ${u.away} and not ${d.away} and ${d.deactivatedAt} is null
         where 'assignee' = any(${u.roles}) and ${u.deactivatedAt} is null order by ${u.name}`,
  );
  return rows.map((row) => ({ id: row.id, name: row.name, away: row.away, delegateName: row.delegate_name }));
}

/** The names of these people, by id (for the run page's "answered by"). */
export async function namesOf(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; name: string }>(db, sql`select ${users.id} as id, ${users.name} as name from ${users} where ${users.id} = any(${`{${ids.join(",")}}`}::uuid[])`);
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** What was answered to each of a task's questions, by question (ask) id. */
export async function listAnswersForTask(db: Db, taskId: string): Promise<Map<string, { answer: unknown; spec: QuestionSpec }>> {
  const rows = await queryRows<{ id: string; answer: unknown; spec: QuestionSpec | string }>(db, sql`select ${asks.id} as id, ${asks.answer} as answer, ${asks.spec} as spec from ${asks} where ${asks.taskId} = ${taskId} and ${asks.answer} is not null`);
  return new Map(rows.map((row) => [row.id, { answer: row.answer, spec: typeof row.spec === "string" ? (JSON.parse(row.spec) as QuestionSpec) : row.spec }]));
}
