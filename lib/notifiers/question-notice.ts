import { z } from "zod";
import type { DeliveryReport, QuestionNotice } from "../../db/types/question-notice";

export type { DeliveryAttempt, DeliveryReport, NoticeRecipient, QuestionNotice } from "../../db/types/question-notice";

export type QuestionNoticeKind = QuestionNotice["kind"];

const isoDateTime = z.iso.datetime({ offset: true });
const httpUrl = z.url({ protocol: /^https?$/ });

const fields = {
  id: z.string().min(1),
  url: httpUrl,
  question: z.string(),
  askedBy: z.string(),
  subject: z.string(),
  recipients: z.array(z.object({ userId: z.string().min(1), name: z.string(), email: z.email() })),
  openedAt: isoDateTime,
  dueAt: isoDateTime.nullable(),
};

/** Validates a notice read back from storage (or built by a caller that wants the check). */
export const questionNoticeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("question-opened"), ...fields }),
  z.object({ kind: z.literal("reminder"), remindedAt: isoDateTime, remindedBy: z.string().optional(), ...fields }),
]);

/**
 * The key a receiver de-duplicates deliveries by (a webhook's `webhook-id`): the same for every retry of
 * one notice (including an outbox's later retries), different for each reminder. It has no full stop,
 * which Standard Webhooks forbids in an id: a reminder is told apart by its time in unix milliseconds.
 */
export function noticeDeliveryId(notice: QuestionNotice): string {
  return notice.kind === "reminder" ? `${notice.id}:reminder:${Date.parse(notice.remindedAt)}` : `${notice.id}:question-opened`;
}

/**
 * Tells people about a question. `notify` never throws and never waits longer than the notifier's
 * configured bound; the caller is expected to run it from a job, after the question is committed.
 */
export interface Notifier {
  /** A short stable name for reports and logs, e.g. "webhook" or "email". */
  readonly name: string;
  notify(notice: QuestionNotice): Promise<DeliveryReport>;
}
