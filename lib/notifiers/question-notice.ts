import { z } from "zod";

/** A person a question is addressed to. */
export interface NoticeRecipient {
  userId: string;
  name: string;
  email: string;
}

interface QuestionNoticeFields {
  /** The question's id. */
  id: string;
  /** Absolute link to the question's page. */
  url: string;
  /** The question as the agent wrote it: untrusted, may span several lines. */
  question: string;
  /** Who asks: the agent's or workflow's name. */
  askedBy: string;
  /** What the question is about, e.g. the claim under review. */
  subject: string;
  recipients: NoticeRecipient[];
  /** ISO 8601. */
  openedAt: string;
  /** ISO 8601. */
  dueAt: string;
}

/**
 * What a notifier is told when a question opens, or when an admin reminds its recipients. A plain
 * serialisable object, so an outbox can store it and deliver it later; `questionNoticeSchema` reads
 * it back.
 */
export type QuestionNotice = QuestionNoticeFields &
  (
    | { kind: "question-opened" }
    | {
        kind: "reminder";
        /** ISO 8601; tells one reminder from the next, so each is delivered once. */
        remindedAt: string;
        /** The admin who sent the reminder, when known. */
        remindedBy?: string;
      }
  );

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
  dueAt: isoDateTime,
};

/** Validates a notice read back from storage (or built by a caller that wants the check). */
export const questionNoticeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("question-opened"), ...fields }),
  z.object({ kind: z.literal("reminder"), remindedAt: isoDateTime, remindedBy: z.string().optional(), ...fields }),
]);

/**
 * The key a receiver de-duplicates deliveries by: the same for every retry of one notice (including
 * an outbox's later retries), different for each reminder.
 */
export function noticeDeliveryId(notice: QuestionNotice): string {
  return notice.kind === "reminder" ? `${notice.id}:reminder:${notice.remindedAt}` : `${notice.id}:question-opened`;
}

/** One try at handing a notice over. */
export interface DeliveryAttempt {
  /** 1-based. */
  attempt: number;
  outcome: "accepted" | "rejected" | "timeout" | "network-error";
  /** The HTTP status, or the SMTP reply code, when the other side answered. */
  statusCode?: number;
  /** Why it was not accepted, for the record; never shown to the recipients. */
  error?: string;
  durationMs: number;
}

/**
 * What became of a notice. Notifiers resolve with this rather than throwing, so the caller can record
 * it; `retryable` says whether trying the same notice again later may succeed (a receiver that was
 * down) or not (a receiver that refused it).
 */
export type DeliveryReport =
  | { notifier: string; status: "delivered"; attempts: DeliveryAttempt[] }
  | { notifier: string; status: "failed"; retryable: boolean; attempts: DeliveryAttempt[] };

/**
 * Tells people about a question. `notify` never throws and never waits longer than the notifier's
 * configured bound; the caller is expected to run it from a job, after the question is committed.
 */
export interface Notifier {
  /** A short stable name for reports and logs, e.g. "webhook" or "email". */
  readonly name: string;
  notify(notice: QuestionNotice): Promise<DeliveryReport>;
}
