import { noticeDeliveryId, type DeliveryReport, type Notifier, type QuestionNotice } from "./question-notice";
import { deliverWebhook, isWebhookSecret, type WebhookMessage, type WebhookRetryOptions } from "./standard-webhook";
import { hasUrlCredentials } from "./url-credentials";

/** Where question notices go, and how they are signed and retried. */
export interface WebhookNotifierOptions extends WebhookRetryOptions {
  /** Where notices are POSTed, as Standard Webhooks. */
  url: string;
  /** A `whsec_` secret shared with the receiver, which verifies with a `standardwebhooks` library or `verifyStandardWebhook`. */
  secret: string;
}

/** A person a question is addressed to, as a webhook's `data` names them. */
export interface QuestionWebhookRecipient {
  user_id: string;
  name: string;
  email: string;
}

/**
 * The `data` of a `question.opened` or `question.reminded` webhook: the notice's fields in snake_case,
 * like the HTTP API. Every text in it is untrusted: `question` is written by an AI agent.
 */
export interface QuestionWebhookData {
  id: string;
  url: string;
  question: string;
  asked_by: string;
  subject: string;
  recipients: QuestionWebhookRecipient[];
  /** ISO 8601. */
  opened_at: string;
  /** ISO 8601; null when the question has no deadline. */
  due_at: string | null;
  /** ISO 8601; reminders only. */
  reminded_at?: string;
  /** The admin who sent the reminder, when known; reminders only. */
  reminded_by?: string;
}

/** The event types question notices are sent as. */
export type QuestionWebhookType = "question.opened" | "question.reminded";

/**
 * A stored notice as the message sent for it: `question.opened` at the time the question opened, or
 * `question.reminded` at the time of the reminder. Its id is `noticeDeliveryId(notice)`, so every retry
 * of one notice — the outbox's later ones included — carries the same `webhook-id`.
 */
export function questionNoticeMessage(notice: QuestionNotice): WebhookMessage & { type: QuestionWebhookType; data: QuestionWebhookData } {
  const data: QuestionWebhookData = {
    id: notice.id,
    url: notice.url,
    question: notice.question,
    asked_by: notice.askedBy,
    subject: notice.subject,
    recipients: notice.recipients.map((recipient) => ({ user_id: recipient.userId, name: recipient.name, email: recipient.email })),
    opened_at: notice.openedAt,
    due_at: notice.dueAt,
  };
  if (notice.kind === "reminder") {
    return {
      id: noticeDeliveryId(notice),
      type: "question.reminded",
      timestamp: new Date(notice.remindedAt),
      data: { ...data, reminded_at: notice.remindedAt, ...(notice.remindedBy !== undefined ? { reminded_by: notice.remindedBy } : {}) },
    };
  }
  return { id: noticeDeliveryId(notice), type: "question.opened", timestamp: new Date(notice.openedAt), data };
}

/**
 * A notifier that sends each notice to one URL as a Standard Webhook (`questionNoticeMessage`, through
 * `deliverWebhook`: signed, retried, never throwing, bounded by `webhookDeliveryBoundMs(options)`).
 * Throws a `TypeError` at once for a URL that is not http(s) or carries credentials, or a secret that is not `whsec_`, so a
 * misconfigured deployment fails at start-up rather than at its first question.
 */
export function createWebhookNotifier(options: WebhookNotifierOptions): Notifier {
  const url = new URL(options.url);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`A webhook URL must be http or https, not ${url.protocol}`);
  if (hasUrlCredentials(url)) throw new TypeError("A webhook URL must not carry a user name or password.");
  if (!isWebhookSecret(options.secret)) throw new TypeError("A webhook secret must be whsec_ followed by 24 to 64 bytes in base64.");
  const { secret, ...retry } = options;
  return {
    name: "webhook",
    notify(notice: QuestionNotice): Promise<DeliveryReport> {
      return deliverWebhook({ ...retry, url, secret, message: questionNoticeMessage(notice) });
    },
  };
}
