import type { IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";
import type { ReceivedWebhook } from "./webhook-receiver";

function stringHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

/**
 * Verifies a received webhook with the `standardwebhooks` package — a verifier nobody here wrote — and
 * returns its parsed body; throws `WebhookVerificationError` when it is not authentic.
 */
export function verifiedByStandardWebhooks(secret: string, webhook: Pick<ReceivedWebhook, "headers" | "body">): unknown {
  return new Webhook(secret).verify(webhook.body, stringHeaders(webhook.headers));
}
