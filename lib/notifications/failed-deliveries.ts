import type { Db } from "@/db/client";
import { type FailedDeliveryRow, listFailedDeliveries } from "@/db/queries/notification-outbox";
import { type DeliveryReport, withoutUrlCredentials } from "@/lib/notifiers";

/** The longest reason kept from a receiver's or server's answer (it is not ours to size). */
const REASON_LENGTH = 300;

/**
 * Why a delivery failed, in a line: the last attempt's answer (an SMTP reply code, an HTTP status, a
 * timeout, a refused connection) and what the other side said. Reports carry no secrets; a URL's user
 * name and password are taken out all the same, and the text is cut short, as it comes from outside.
 */
export function deliveryFailureReason(report: DeliveryReport): string {
  if (report.status === "delivered") return "delivered";
  const last = report.attempts.at(-1);
  if (!last) return `not sent: no notifier or target named ${report.notifier} on the instance that took it`;
  const outcome = { accepted: "accepted", rejected: "refused", timeout: "timed out", "network-error": "could not connect" }[last.outcome];
  const code = last.statusCode === undefined ? "" : ` (${last.statusCode})`;
  // Reports stored before credentials were kept out of them may still hold a URL's password.
  const said = last.error ? `: ${withoutUrlCredentials(last.error).replace(/\s+/g, " ").trim()}` : "";
  const reason = `${outcome}${code}${said}`;
  return reason.length <= REASON_LENGTH ? reason : `${reason.slice(0, REASON_LENGTH - 1)}…`;
}

/** What a delivery was of, in words. */
const KIND_WORDS: Readonly<Record<string, string>> = {
  "question-opened": "New question",
  reminder: "Reminder",
  "ask-answered": "Ask answered (webhook)",
  "ask-nothing": "Ask ended with nothing (webhook)",
};

/** A failed delivery as admins see it. */
export interface FailedDelivery {
  id: number;
  questionId: string;
  taskId: string | null;
  /** The question's headline, when it is still on record. */
  question: string | null;
  /** What was being delivered, e.g. "Reminder". */
  what: string;
  /** The notifier or event target, e.g. `email`, `webhook`, `callback`. */
  notifier: string;
  /** Whom a notice was for ("Sam Rivera <sam@…>"); empty for a webhook event, which goes to a receiver. */
  recipients: string[];
  reason: string;
  /** `given-up`: no more tries; `retrying`: tried again at `retryAt`. */
  state: "given-up" | "retrying";
  /** When it was given up (`given-up`), or when it is tried again (`retrying`). */
  at: Date;
  deliveries: number;
}

function recipientsOf(row: FailedDeliveryRow): string[] {
  const recipients = "recipients" in row.notice && Array.isArray(row.notice.recipients) ? row.notice.recipients : [];
  return recipients.map((recipient) => `${recipient.name} <${recipient.email}>`);
}

/** The most recent failed deliveries (given up, or to be tried again), newest first, for admins. */
export async function loadFailedDeliveries(db: Db, options: { limit?: number } = {}): Promise<FailedDelivery[]> {
  const rows = await listFailedDeliveries(db, { limit: options.limit ?? 50 });
  return rows.map((row) => ({
    id: row.id,
    questionId: row.questionId,
    taskId: row.taskId,
    question: row.headline?.trim() || null,
    what: KIND_WORDS[row.kind] ?? row.kind,
    notifier: row.notifier,
    recipients: recipientsOf(row),
    reason: deliveryFailureReason(row.report),
    state: row.status === "failed" ? "given-up" : "retrying",
    at: row.finishedAt ?? row.runAt,
    deliveries: row.deliveries,
  }));
}
