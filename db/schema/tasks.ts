import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * The platform's own task table: the item a workflow drives when it keeps nothing of its own. A
 * workflow may track a table of its app's instead (any table with a uuid `id` and a text `status`);
 * this one needs no migration of the app's, and holds what the run was started with.
 */
export const tasks = pgTable(
  "tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The registered workflow that runs over it. */
    workflow: text("workflow").notNull(),
    /** Driven by the workflow's run, like any tracked table's. */
    status: text("status").notNull().default("running"),
    /** What the task is about, in a line, for screens. */
    title: text("title").notNull(),
    /** What the run was started with: the workflow's start input, as judged by its schema. */
    input: jsonb("input").$type<Record<string, unknown>>().notNull(),
    createdBy: uuid("created_by").references(() => users.id),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("tasks_workflow_created_idx").on(table.workflow, table.createdAt)],
);

/**
 * The one-time token each start form carries: the first submission inserts it with the run it started,
 * a second submission of the same form finds it and is shown that run instead of starting another.
 */
export const runStarts = pgTable("run_starts", {
  token: uuid("token").primaryKey(),
  workflow: text("workflow").notNull(),
  /** The tracked item (task) the start created. */
  taskId: uuid("task_id").notNull(),
  startedBy: uuid("started_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

export type Task = typeof tasks.$inferSelect;
export type NewTask = typeof tasks.$inferInsert;
