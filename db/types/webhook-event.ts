/**
 * A Standard Webhooks event as the notification outbox keeps it until it is sent. It lives in db/
 * beside the table that stores it (db/ imports nothing from lib/); lib/notifications turns it back into
 * a `WebhookMessage` when it is delivered.
 */
export interface StoredWebhookEvent {
  /** The `webhook-id` of every delivery of this event, to every receiver, retries included. */
  id: string;
  /** Full-stop delimited, e.g. `ask.answered`. */
  type: string;
  /** When the event happened, ISO 8601: fixed when it is queued, so it does not change between retries. */
  timestamp: string;
  /** The event itself, as it was when the change that caused it committed. */
  data: Record<string, unknown>;
}
