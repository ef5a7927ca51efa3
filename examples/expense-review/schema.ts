import { date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "parley/workflows";

/** An expense claim: the item the demo reviews. */
export const claims = pgTable("claims", {
  id: uuid("id").primaryKey().defaultRandom(),
  title: text("title").notNull(),
  /** In cents, so sums are exact. */
  amountCents: integer("amount_cents").notNull(),
  currency: text("currency").notNull().default("USD"),
  merchant: text("merchant").notNull(),
  incurredOn: date("incurred_on", { mode: "string" }).notNull(),
  description: text("description").notNull().default(""),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A review of one claim; the ReviewClaim workflow drives its `status`. */
export const reviewTasks = pgTable(
  "review_tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    claimId: uuid("claim_id")
      .notNull()
      .references(() => claims.id),
    status: text("status").notNull().default("running"),
    /** Who is asked first; every assignee may answer. */
    assigneeId: uuid("assignee_id").references(() => users.id),
    createdBy: uuid("created_by").references(() => users.id),
    decision: text("decision").$type<"approved" | "rejected">(),
    decisionReason: text("decision_reason"),
    /** How the filer asked to be paid back (the Reimbursement questionnaire's typed value). */
    reimbursement: jsonb("reimbursement").$type<Record<string, unknown>>(),
    /** Why no reimbursement answer came (refused, away, non-interactive, expired, declined by the filer). */
    reimbursementNothing: text("reimbursement_nothing"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("review_tasks_claim_idx").on(table.claimId)],
);

/** The app's copy of a question the Auditor asked: what the inbox shows. */
export const reviewQuestions = pgTable(
  "review_questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => reviewTasks.id),
    /** The platform's question record this mirrors; one row per ask. */
    askId: uuid("ask_id").notNull(),
    text: text("text").notNull(),
    options: jsonb("options").$type<string[]>(),
    /** `expired` when the filer never answered in time. */
    status: text("status").$type<"open" | "answered" | "expired">().notNull().default("open"),
    answer: text("answer"),
    askedAt: timestamp("asked_at", { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("review_questions_ask_key").on(table.askId), index("review_questions_task_idx").on(table.taskId)],
);

export type Claim = typeof claims.$inferSelect;
export type NewClaim = typeof claims.$inferInsert;
export type ReviewTask = typeof reviewTasks.$inferSelect;
export type ReviewQuestion = typeof reviewQuestions.$inferSelect;
