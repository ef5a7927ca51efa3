import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { alias, type PgColumn } from "drizzle-orm/pg-core";
import { type Db, queryRows } from "../client";
import { asks, type RunEvent, type RunEventKind, runEvents } from "../schema";
import type { QuestionSpec } from "../types/question-spec";
import { columnList } from "./read-aliases";
import { renderedOnce, schemaSql } from "./statement-parts";

/** A run event about to be appended. */
export interface NewRunEvent {
  taskId: string;
  workflowInstanceId?: string | null;
  kind: RunEventKind;
  agent?: string | null;
  data?: Record<string, unknown>;
  at: Date;
}

/** Serialises events for {@link insertRunEventsSql}. */
function eventsJson(events: readonly NewRunEvent[]): string {
  return JSON.stringify(
    events.map((event) => ({
      [runEvents.taskId.name]: event.taskId,
      [runEvents.workflowInstanceId.name]: event.workflowInstanceId ?? null,
      [runEvents.kind.name]: event.kind,
      [runEvents.agent.name]: event.agent ?? null,
      [runEvents.data.name]: event.data ?? {},
      [runEvents.at.name]: event.at.toISOString(),
    })),
  );
}

/** A column's key in {@link eventsJson}'s objects, as an SQL string literal (`'task_id'`): the column's own name. */
function keyOf(column: PgColumn): SQL {
  return sql.raw(`'${column.name}'`);
}

/**
 * `insert into run_events …` for use inside a CTE, so events commit with the change they describe;
 * `onlyIf` makes them conditional on that change having happened.
 */
export function insertRunEventsSql(events: readonly NewRunEvent[], onlyIf?: SQL): SQL {
  return schemaSql`${INSERT_EVENTS}${eventsJson(events)}::jsonb) with ordinality as e(value, n)
    where ${onlyIf ?? schemaSql`true`}
    order by e.n`;
}

/** The part of {@link insertRunEventsSql} that never changes, rendered once. */
const INSERT_EVENTS = renderedOnce(sql`insert into ${runEvents} (${columnList([runEvents.taskId, runEvents.workflowInstanceId, runEvents.kind, runEvents.agent, runEvents.data, runEvents.at])})
    select (e.value->>${keyOf(runEvents.taskId)})::uuid, (e.value->>${keyOf(runEvents.workflowInstanceId)})::uuid, e.value->>${keyOf(runEvents.kind)},
      e.value->>${keyOf(runEvents.agent)}, e.value->${keyOf(runEvents.data)}, (e.value->>${keyOf(runEvents.at)})::timestamptz
    from jsonb_array_elements(`);

/** Appends events on their own (one statement). */
export async function appendRunEvents(db: Db, events: readonly NewRunEvent[]): Promise<void> {
  if (events.length > 0) await queryRows(db, insertRunEventsSql(events));
}

/** A task's event stream, oldest first. */
export async function listRunEvents(db: Db, taskId: string): Promise<RunEvent[]> {
  return db.select().from(runEvents).where(eq(runEvents.taskId, taskId)).orderBy(asc(runEvents.id));
}

/** Beyond any event id: "before the end" of a task's events. */
const AFTER_EVERY_EVENT = "9223372036854775807";

/**
 * A task's events before event `before` (all of them without it), as bounds on `run_events_task_idx`'s
 * (task_id, id) rather than `task_id = …`: with the task pinned by an equality, the planner may walk
 * the primary key backwards instead, through every newer event of every other run, when one run
 * holds a large share of the table (seen: 490 ms against 0.5 ms for a 9,000-event run in 300,000).
 */
function taskEventsBefore(taskId: string, before: number | undefined): SQL {
  return sql`(${runEvents.taskId}, ${runEvents.id}) > (${taskId}::uuid, 0) and (${runEvents.taskId}, ${runEvents.id}) < (${taskId}::uuid, ${before ?? AFTER_EVERY_EVENT}::bigint)`;
}

/**
 * At most `limit` of a task's events, the newest before event `before` (the newest of all without
 * it), oldest first: one range of `run_events_task_idx` read backwards, however long the run.
 */
export async function listRunEventsBefore(db: Db, taskId: string, options: { before?: number; limit: number }): Promise<RunEvent[]> {
  const rows = await db
    .select()
    .from(runEvents)
    .where(taskEventsBefore(taskId, options.before))
    .orderBy(desc(runEvents.taskId), desc(runEvents.id))
    .limit(options.limit);
  return rows.reverse();
}

/** How many of a task's events come before event `before`, counted up to `atMost` (from the index alone). */
export async function countRunEventsBefore(db: Db, taskId: string, before: number, atMost: number): Promise<number> {
  const [row] = await queryRows<{ count: number | string }>(
    db,
    sql`select count(*) as count from (select 1 from ${runEvents} where ${taskEventsBefore(taskId, before)} order by ${runEvents.taskId} desc, ${runEvents.id} desc limit ${atMost}) older`,
  );
  return Number(row?.count ?? 0);
}

/**
 * A task's latest event of one of these kinds (how a run failed, who cancelled it), read from its
 * newest events backwards: such an event is among a run's last, whatever its length.
 */
export async function findLatestRunEvent(db: Db, taskId: string, kinds: readonly RunEventKind[]): Promise<RunEvent | undefined> {
  const [row] = await db
    .select()
    .from(runEvents)
    .where(and(taskEventsBefore(taskId, undefined), inArray(runEvents.kind, [...kinds])))
    .orderBy(desc(runEvents.taskId), desc(runEvents.id))
    .limit(1);
  return row;
}

/** A task's model turns, each with the agent of the turn before (listTurnHandoffs). */
const turns = alias(runEvents, "turns");

/**
 * Who handed to whom in a task's run, counted by the database: one row per agent and the agent whose
 * model turn came before (null for its first), with how often, in the order each first happened. Only
 * these counts leave the database, never the run's events.
 */
export async function listTurnHandoffs(db: Db, taskId: string): Promise<{ agent: string; previous: string | null; count: number }[]> {
  const rows = await queryRows<{ agent: string; previous: string | null; count: number | string }>(
    db,
    sql`select ${turns.agent} as agent, previous, count(*) as count
          from (select ${runEvents.id}, ${runEvents.agent}, lag(${runEvents.agent}) over (order by ${runEvents.id}) as previous
                  from ${runEvents} where ${runEvents.taskId} = ${taskId} and ${runEvents.kind} = 'turn-started' and ${runEvents.agent} is not null) ${turns}
         group by ${turns.agent}, previous
         order by min(${turns.id})`,
  );
  return rows.map((row) => ({ agent: row.agent, previous: row.previous, count: Number(row.count) }));
}

/** What was answered to these questions of a task (those a page of its events shows), by question id. */
export async function listAnswersOfQuestions(db: Db, taskId: string, questionIds: readonly string[]): Promise<Map<string, { answer: unknown; spec: QuestionSpec }>> {
  const ids = [...new Set(questionIds)];
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; answer: unknown; spec: QuestionSpec | string }>(
    db,
    sql`select ${asks.id} as id, ${asks.answer} as answer, ${asks.spec} as spec from ${asks}
        where ${asks.id} = any(${`{${ids.join(",")}}`}::uuid[]) and ${asks.taskId} = ${taskId} and ${asks.answer} is not null`,
  );
  return new Map(rows.map((row) => [row.id, { answer: row.answer, spec: typeof row.spec === "string" ? (JSON.parse(row.spec) as QuestionSpec) : row.spec }]));
}
