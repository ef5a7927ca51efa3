import { asc, eq, type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../client";
import { type RunEvent, type RunEventKind, runEvents } from "../schema";

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
      task_id: event.taskId,
      workflow_instance_id: event.workflowInstanceId ?? null,
      kind: event.kind,
      agent: event.agent ?? null,
      data: event.data ?? {},
      at: event.at.toISOString(),
    })),
  );
}

/**
 * `insert into run_events …` for use inside a CTE, so events commit with the change they describe;
 * `onlyIf` makes them conditional on that change having happened.
 */
export function insertRunEventsSql(events: readonly NewRunEvent[], onlyIf?: SQL): SQL {
  return sql`insert into run_events (task_id, workflow_instance_id, kind, agent, data, at)
    select (e.value->>'task_id')::uuid, (e.value->>'workflow_instance_id')::uuid, e.value->>'kind',
      e.value->>'agent', e.value->'data', (e.value->>'at')::timestamptz
    from jsonb_array_elements(${eventsJson(events)}::jsonb) with ordinality as e(value, n)
    where ${onlyIf ?? sql`true`}
    order by e.n`;
}

/** Appends events on their own (one statement). */
export async function appendRunEvents(db: Db, events: readonly NewRunEvent[]): Promise<void> {
  if (events.length > 0) await queryRows(db, insertRunEventsSql(events));
}

/** A task's event stream, oldest first. */
export async function listRunEvents(db: Db, taskId: string): Promise<RunEvent[]> {
  return db.select().from(runEvents).where(eq(runEvents.taskId, taskId)).orderBy(asc(runEvents.id));
}
