import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { DeliveryReport, QuestionNotice } from "../types/question-notice";

/** Where an outbox row is: waiting (or waiting to retry), being delivered, or done one way or the other. */
export type NotificationStatus = "queued" | "delivering" | "delivered" | "failed";

/**
 * The notification outbox: one row per notice per configured notifier, written in the transaction
 * that opened the question (or by an admin's reminder), delivered afterwards by a drainer that claims
 * rows with `FOR UPDATE SKIP LOCKED`. The run never waits for a receiver.
 */
export const notificationOutbox = pgTable(
  "notification_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    questionId: uuid("question_id").notNull(),
    /** `question-opened` or `reminder`. */
    kind: text("kind").$type<QuestionNotice["kind"]>().notNull(),
    /** Which notifier delivers this row (e.g. "webhook", "email"): each retries on its own. */
    notifier: text("notifier").notNull(),
    /** The notice exactly as it is handed to the notifier (read back with `questionNoticeSchema`). */
    notice: jsonb("notice").$type<QuestionNotice>().notNull(),
    status: text("status").$type<NotificationStatus>().notNull().default("queued"),
    /** Deliveries tried so far (each may itself make several attempts). */
    deliveries: integer("deliveries").notNull().default(0),
    runAt: timestamp("run_at", { withTimezone: true }).notNull(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** The latest `DeliveryReport`. */
    report: jsonb("report").$type<DeliveryReport>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("notification_outbox_queued_idx").on(table.runAt, table.id).where(sql`${table.status} = 'queued'`),
    index("notification_outbox_delivering_idx").on(table.lockedUntil).where(sql`${table.status} = 'delivering'`),
    // A question's opening is announced to each notifier once, however often the announce runs.
    uniqueIndex("notification_outbox_opened_key")
      .on(table.questionId, table.notifier)
      .where(sql`${table.kind} = 'question-opened'`),
  ],
);

export type NotificationOutboxRow = typeof notificationOutbox.$inferSelect;
