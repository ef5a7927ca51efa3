/**
 * The shapes of a question notice and of its delivery report, as the notification outbox stores
 * them. They live in db/ beside the table that stores them (db/ imports nothing from lib/);
 * lib/notifiers/question-notice.ts re-exports them with the schema that reads a notice back.
 */

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
  /** ISO 8601; null when the question has no deadline (a notice stored before it could be null always has one). */
  dueAt: string | null;
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
