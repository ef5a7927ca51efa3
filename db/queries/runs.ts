import { type SQL, sql } from "drizzle-orm";
import type { RunStatus } from "../schema";
import { type Db, queryRows } from "../client";
import type { QuestionSpec } from "../types/question-spec";

/**
 * Where a run stands, as the operators' list filters it. `nothing` is a run that ended in failure
 * because a question got no answer (its reason recorded: away, expired, refused, non-interactive);
 * `failed` is any other failure, including a model error that can be retried; `cancelled`, a run an
 * operator cancelled (the questions it withdrew do not make it `nothing`).
 */
export const RUN_STATES = ["running", "waiting", "completed", "failed", "nothing", "cancelled"] as const;
export type RunState = (typeof RUN_STATES)[number];

/** One run as the operators' list and the run page show it, whatever its workflow. */
export interface RunRow {
  taskId: string;
  workflow: string;
  state: string;
  status: RunStatus;
  /** The list's filter category (see {@link RUN_STATES}). */
  runState: RunState;
  /** Why a question got no answer, when one did not (away, expired, refused, non-interactive). */
  nothingReason: string | null;
  lastError: string | null;
  startedAt: Date;
  updatedAt: Date;
  /** Whom an open wait is on, by name ("any candidate" when nobody is named); null when nothing waits on a person. */
  waitingOn: string | null;
}

// Every run with its nothing-reason and its filter category: one definition for the list, its counts and the run page.
function runs(where: SQL): SQL {
  return sql`
  with base as (
    select w.task_id, w.workflow, w.state, w.status, w.last_error, w.created_at, w.updated_at,
           coalesce((select a.reason from asks a where a.task_id = w.task_id and a.status = 'nothing' order by a.answered_at desc nulls last limit 1),
                    (select 'expired' from slots s where s.task_id = w.task_id and s.status = 'expired' limit 1)) as nothing_reason
      from workflow_instances w
      ${where}
  ), runs as (
    select base.*,
           case when status = 'failed' and nothing_reason is not null then 'nothing'
                when status in ('failed', 'retryable') then 'failed'
                else status end as run_state
      from base
  )`;
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

const WAITING_ON = sql`(select coalesce(assignee.name, 'any candidate') from slots s left join users assignee on assignee.id = s.assignee_id
                          where s.task_id = r.task_id and s.status = 'open' order by s.opened_at limit 1) as waiting_on`;

function toRunRow(row: Row): RunRow {
  return {
    taskId: row.task_id,
    workflow: row.workflow,
    state: row.state,
    status: row.status,
    runState: row.run_state,
    nothingReason: row.nothing_reason,
    lastError: row.last_error,
    startedAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    waitingOn: row.waiting_on,
  };
}

function workflowFilter(workflows: readonly string[] | undefined): SQL {
  return workflows ? sql`where w.workflow = any(${`{${workflows.map((name) => `"${name.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`}::text[])` : sql``;
}

/**
 * Runs of these workflows (all when unset), newest first, optionally in one state, with whom each
 * waits on (one query). `after` (a task id from a previous page) continues with the runs older than
 * that task's run; an unknown one continues with nothing.
 */
export async function listRuns(
  db: Db,
  options: { workflows?: readonly string[]; state?: RunState; limit?: number; after?: string } = {},
): Promise<RunRow[]> {
  const conditions: SQL[] = [];
  if (options.state) conditions.push(sql`r.run_state = ${options.state}`);
  if (options.after) {
    conditions.push(
      sql`(r.created_at, r.task_id) < (select w2.created_at, w2.task_id from workflow_instances w2 where w2.task_id = ${options.after}::uuid order by w2.created_at limit 1)`,
    );
  }
  const filter: SQL = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  const rows = await queryRows<Row>(
    db,
    sql`${runs(workflowFilter(options.workflows))}
        select r.*, ${WAITING_ON} from runs r ${filter} order by r.created_at desc, r.task_id desc limit ${options.limit ?? 200}`,
  );
  return rows.map(toRunRow);
}

/** How many runs of these workflows (all when unset) are in each state (every state present, zero when none). */
export async function countRunsByState(db: Db, options: { workflows?: readonly string[] } = {}): Promise<Record<RunState, number>> {
  const rows = await queryRows<{ run_state: RunState; count: number | string }>(
    db,
    sql`${runs(workflowFilter(options.workflows))} select run_state, count(*) as count from runs group by run_state`,
  );
  const counts = Object.fromEntries(RUN_STATES.map((state) => [state, 0])) as Record<RunState, number>;
  for (const row of rows) counts[row.run_state] = Number(row.count);
  return counts;
}

/** The (first) run over a task, or undefined when no run is over it. */
export async function findRun(db: Db, taskId: string): Promise<RunRow | undefined> {
  const [row] = await queryRows<Row>(
    db,
    sql`${runs(sql`where w.task_id = ${taskId}`)} select r.*, ${WAITING_ON} from runs r order by r.created_at limit 1`,
  );
  return row ? toRunRow(row) : undefined;
}

/** The people a start form may offer (assignees), by name, with whether they are away. */
export async function listPeopleToAsk(db: Db): Promise<{ id: string; name: string; away: boolean; delegateName: string | null }[]> {
  const rows = await queryRows<{ id: string; name: string; away: boolean; delegate_name: string | null }>(
    db,
    // The delegate counts only while they can take questions themselves.
    sql`select u.id, u.name, u.away, d.name as delegate_name
          from users u left join users d on d.id = u.delegate_id and u.away and not d.away and d.deactivated_at is null
         where 'assignee' = any(u.roles) and u.deactivated_at is null order by u.name`,
  );
  return rows.map((row) => ({ id: row.id, name: row.name, away: row.away, delegateName: row.delegate_name }));
}

/** The names of these people, by id (for the run page's "answered by"). */
export async function namesOf(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; name: string }>(db, sql`select id, name from users where id = any(${`{${ids.join(",")}}`}::uuid[])`);
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** What was answered to each of a task's questions, by question (ask) id. */
export async function listAnswersForTask(db: Db, taskId: string): Promise<Map<string, { answer: unknown; spec: QuestionSpec }>> {
  const rows = await queryRows<{ id: string; answer: unknown; spec: QuestionSpec | string }>(db, sql`select id, answer, spec from asks where task_id = ${taskId} and answer is not null`);
  return new Map(rows.map((row) => [row.id, { answer: row.answer, spec: typeof row.spec === "string" ? (JSON.parse(row.spec) as QuestionSpec) : row.spec }]));
}
