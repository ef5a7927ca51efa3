import { type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { apiKeys, asks, type AuditCategory, auditEvents, type NewAuditEvent, users, workflowInstances } from "../schema";

/**
 * The log's lines (`e`: the table, and the page read from it, which has its columns), the line a page
 * follows (`b`), and what a line names: its actor and their key, its question, its person and key, a run.
 */
const e = alias(auditEvents, "e");
const b = alias(auditEvents, "b");
const actor = alias(users, "actor");
const actorKey = alias(apiKeys, "actor_key");
const q = alias(asks, "q");
const person = alias(users, "person");
const subjectKey = alias(apiKeys, "subject_key");
const w = alias(workflowInstances, "w");

export type { AuditCategory, NewAuditEvent };

/**
 * Appends audit events, in the caller's transaction (or as the one statement it is). Actions on runs
 * and changes to people are recorded by PostgreSQL from `run_events` and `person_changes` (migration
 * 0026); this is for the rest — starts, asks by a key, groups, keys.
 */
export async function insertAuditEvents(db: Db, events: readonly NewAuditEvent[]): Promise<void> {
  if (events.length > 0) await db.insert(auditEvents).values([...events]);
}

/** One line of the log, with the names it needs (each null when there is none, or it is gone). */
export interface AuditRow {
  id: number;
  at: Date;
  action: string;
  category: AuditCategory;
  actorId: string | null;
  actorName: string | null;
  actorKeyId: string | null;
  actorKeyName: string | null;
  taskId: string | null;
  questionId: string | null;
  /** The question's title, or its first field's words. */
  questionTitle: string | null;
  /** The workflow of the run the action was on. */
  workflow: string | null;
  personId: string | null;
  personName: string | null;
  groupId: string | null;
  apiKeyId: string | null;
  apiKeyName: string | null;
  detail: Record<string, unknown>;
}

/** What the log is narrowed to; every part optional. `until` is exclusive. */
export interface AuditFilter {
  category?: AuditCategory;
  actorId?: string;
  from?: Date;
  until?: Date;
}

type Raw = {
  id: string | number;
  at: string | Date;
  action: string;
  category: AuditCategory;
  actor_id: string | null;
  actor_name: string | null;
  actor_key_id: string | null;
  actor_key_name: string | null;
  task_id: string | null;
  question_id: string | null;
  question_title: string | null;
  workflow: string | null;
  person_id: string | null;
  person_name: string | null;
  group_id: string | null;
  api_key_id: string | null;
  api_key_name: string | null;
  detail: Record<string, unknown> | string | null;
};

/**
 * A page of the log, newest first: at most `limit` lines matching `filter`, after line `before` (its
 * id, from the previous page: the cursor is read from the row, so no moment is rounded on the way).
 * One walk along `audit_events_at_idx`, or the category's or the person's index when narrowed to one,
 * newest first, stopping after `limit`: a page costs the same however long the log.
 */
export async function listAuditEvents(db: Db, options: { filter?: AuditFilter; before?: number; limit: number }): Promise<AuditRow[]> {
  const filter = options.filter ?? {};
  const conditions: SQL[] = [];
  if (filter.category) conditions.push(sql`${e.category} = ${filter.category}`);
  if (filter.actorId) conditions.push(sql`${e.actorId} = ${filter.actorId}::uuid`);
  if (filter.from) conditions.push(sql`${e.at} >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.until) conditions.push(sql`${e.at} < ${filter.until.toISOString()}::timestamptz`);
  if (options.before !== undefined) conditions.push(sql`(${e.at}, ${e.id}) < (select ${b.at}, ${b.id} from ${auditEvents} ${b} where ${b.id} = ${options.before}::bigint)`);
  const where = conditions.length > 0 ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;
  // Each index is ordered (…, at, id): ordering by the filtered columns too lets the walk read it backwards as it is.
  const order = filter.actorId
    ? sql`${e.actorId} desc, ${e.at} desc, ${e.id} desc`
    : filter.category
      ? sql`${e.category} desc, ${e.at} desc, ${e.id} desc`
      : sql`${e.at} desc, ${e.id} desc`;
  const rows = await queryRows<Raw>(
    db,
    sql`with page as (
          select ${e}.* from ${auditEvents} ${e} ${where} order by ${order} limit ${options.limit}
        )
        select ${e.id} as id, ${e.at} as at, ${e.action} as action, ${e.category} as category, ${e.actorId} as actor_id, ${actor.name} as actor_name,
          ${e.actorKeyId} as actor_key_id, ${actorKey.name} as actor_key_name,
          ${e.taskId} as task_id, ${e.questionId} as question_id, coalesce(${q.title}, ${q.spec} ->> 'title', ${q.spec} #>> '{fields,0,question}') as question_title,
          coalesce(${q.workflow}, (select ${w.workflow} from ${workflowInstances} ${w} where ${w.taskId} = ${e.taskId} order by ${w.createdAt} limit 1)) as workflow,
          ${e.personId} as person_id, ${person.name} as person_name, ${e.groupId} as group_id, ${e.apiKeyId} as api_key_id, ${subjectKey.name} as api_key_name,
          ${e.detail} as detail
        from page ${e}
          left join ${users} ${actor} on ${actor.id} = ${e.actorId}
          left join ${apiKeys} ${actorKey} on ${actorKey.id} = ${e.actorKeyId}
          left join ${asks} ${q} on ${q.id} = ${e.questionId}
          left join ${users} ${person} on ${person.id} = ${e.personId}
          left join ${apiKeys} ${subjectKey} on ${subjectKey.id} = ${e.apiKeyId}
        order by ${e.at} desc, ${e.id} desc`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    at: toDate(row.at)!,
    action: row.action,
    category: row.category,
    actorId: row.actor_id,
    actorName: row.actor_name,
    actorKeyId: row.actor_key_id,
    actorKeyName: row.actor_key_name,
    taskId: row.task_id,
    questionId: row.question_id,
    questionTitle: row.question_title,
    workflow: row.workflow,
    personId: row.person_id,
    personName: row.person_name,
    groupId: row.group_id,
    apiKeyId: row.api_key_id,
    apiKeyName: row.api_key_name,
    detail: typeof row.detail === "string" ? (JSON.parse(row.detail) as Record<string, unknown>) : (row.detail ?? {}),
  }));
}
