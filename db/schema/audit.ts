import { sql } from "drizzle-orm";
import { bigserial, check, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * What the audit log groups actions by, for its filter: answers and declines; claims, releases and
 * reassignments of a question; runs started, cancelled and retried, and asks made by an agent key;
 * people and groups changed; keys made, used and revoked.
 */
export const AUDIT_CATEGORIES = ["answers", "questions", "runs", "people", "keys"] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

/**
 * Who did what and when, for admins: one row per action, appended in the transaction of the change
 * it records (never after it), never updated. A person's actions on runs and the changes to people
 * come from `run_events` and `person_changes` by triggers (migration 0026), so every statement that
 * answers, declines, claims, reassigns, cancels, retries or changes a person records it without
 * knowing of this table; starts, asks by a key, groups and keys are written beside the change by the
 * code that makes it (db/queries). Subjects are ids, not foreign keys: the log outlives a deleted
 * group, and `detail` keeps the names of the moment.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /** e.g. `answered`, `declined`, `person-roles-changed`, `key-revoked` (lib/audit.ts names each). */
    action: text("action").notNull(),
    category: text("category").$type<AuditCategory>().notNull(),
    /** The person who acted; null with no key either: Parley did (an escalation, an expiry). */
    actorId: uuid("actor_id"),
    /** The agent key that acted (an ask over the API or MCP, a key's use). */
    actorKeyId: uuid("actor_key_id"),
    taskId: uuid("task_id"),
    questionId: uuid("question_id"),
    personId: uuid("person_id"),
    groupId: uuid("group_id"),
    apiKeyId: uuid("api_key_id"),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (table) => [
    // The log is read newest first, a page at a time, along one of these: all of it, one category, one person's actions.
    index("audit_events_at_idx").on(table.at, table.id),
    index("audit_events_category_at_idx").on(table.category, table.at, table.id),
    index("audit_events_actor_at_idx").on(table.actorId, table.at, table.id).where(sql`${table.actorId} is not null`),
    check("audit_events_category_known", sql`${table.category} in ('answers', 'questions', 'runs', 'people', 'keys')`),
  ],
);

export type AuditEvent = typeof auditEvents.$inferSelect;
export type NewAuditEvent = typeof auditEvents.$inferInsert;
