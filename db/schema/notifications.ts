import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { DeliveryReport, QuestionNotice } from "../types/question-notice";
import type { StoredWebhookEvent } from "../types/webhook-event";

/** Where an outbox row is: waiting (or waiting to retry), being delivered, or done one way or the other. */
export type NotificationStatus = "queued" | "delivering" | "delivered" | "failed";

/**
 * The kinds of row that carry a webhook event (`StoredWebhookEvent`) rather than a question notice:
 * an API ask answered, or closed with nothing. An ask ends once, so each is queued once per target.
 */
export const OUTBOX_EVENT_KINDS = ["ask-answered", "ask-nothing"] as const;
export type OutboxEventKind = (typeof OUTBOX_EVENT_KINDS)[number];

/** What an outbox row tells: a question notice (`question-opened`, `reminder`) or a webhook event. */
export type OutboxKind = QuestionNotice["kind"] | OutboxEventKind;

/**
 * The notification outbox: one row per thing to tell per target, written in the transaction that
 * made the change (a question opened, an API ask answered or closed with nothing) or by an admin's
 * reminder, and delivered afterwards by a drainer that claims rows with `FOR UPDATE SKIP LOCKED` and a
 * lease. The run never waits for a receiver.
 *
 * A question notice is handed to the notifier its `notifier` names (`webhook`, `email`); a webhook
 * event goes to the target its `notifier` names (`webhook`: the global receiver, `callback`: the ask's
 * own `callback_url`).
 */
export const notificationOutbox = pgTable(
  "notification_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The question the row is about; for an ask's event, the ask's question (`api_asks.question_id`). */
    questionId: uuid("question_id").notNull(),
    /** `question-opened` or `reminder` (a notice), `ask-answered` or `ask-nothing` (an event). */
    kind: text("kind").$type<OutboxKind>().notNull(),
    /** Which notifier or event target delivers this row (e.g. "webhook", "email", "callback"): each retries on its own. */
    notifier: text("notifier").notNull(),
    /**
     * A notice exactly as it is handed to the notifier (read back with `questionNoticeSchema`), or an
     * event exactly as it is sent. Never a secret: targets look theirs up when they deliver.
     */
    notice: jsonb("notice").$type<QuestionNotice | StoredWebhookEvent>().notNull(),
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
    // Admin → Failed deliveries: the failed ones, newest first, read 50 at a time along this (not by sorting every delivery).
    index("notification_outbox_failed_newest_idx")
      .on(sql`(coalesce(${table.finishedAt}, ${table.runAt})) desc`, sql`${table.id} desc`)
      .where(sql`${table.report} is not null and (${table.report} ->> 'status') = 'failed' and ${table.status} in ('failed', 'queued')`),
    // A question's opening is announced to each notifier once, however often the announce runs.
    uniqueIndex("notification_outbox_opened_key")
      .on(table.questionId, table.notifier)
      .where(sql`${table.kind} = 'question-opened'`),
    // An ask ends once (answered or nothing), and each target hears of it once, however often the announce runs.
    uniqueIndex("notification_outbox_ask_ended_key")
      .on(table.questionId, table.notifier)
      .where(sql`${table.kind} in ('ask-answered', 'ask-nothing')`),
  ],
);

export type NotificationOutboxRow = typeof notificationOutbox.$inferSelect;
