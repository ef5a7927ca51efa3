import { createOutboxDrainer, type OutboxDrainer, webhookEventTarget } from "@/lib/notifications/outbox";
import { askCallbackTarget } from "@/lib/asks/ask-webhooks";
import { newWebhookSecret } from "@/lib/notifiers";
import { verifiedByStandardWebhooks } from "../notifiers/support/standard-webhooks";
import { type ReceivedWebhook, startWebhookReceiver, type WebhookResponse } from "../notifiers/support/webhook-receiver";
import type { AskFixture } from "./ask-fixture";

/** The global receiver's secret (`PARLEY_WEBHOOK_SECRET` in the app). */
export const GLOBAL_SECRET = newWebhookSecret();

/** How long the drainer waits before the second delivery of a failed event (doubled for each after). */
export const RETRY_DELAY_MS = 60_000;

/** A receiver on 127.0.0.1 that accepts everything, or answers as `respond` says. */
export function startReceiver(respond: (index: number) => WebhookResponse = () => ({ status: 204 })) {
  return startWebhookReceiver((index) => respond(index));
}

/**
 * An outbox drainer as an app instance runs it: the callback target always, the global receiver
 * only when `globalUrl` is given (the instance has `PARLEY_WEBHOOK_URL`). One HTTP attempt per
 * delivery, so every retry is the outbox's own; on the fixture's clock.
 */
export function askEventDrainer(fixture: AskFixture, options: { globalUrl?: string; maxDeliveries?: number; leaseMs?: number } = {}): OutboxDrainer {
  const { db } = fixture.database;
  return createOutboxDrainer({
    db,
    targets: [
      askCallbackTarget({ db, privateCallbacks: "allow", maxAttempts: 1 }),
      ...(options.globalUrl ? [webhookEventTarget({ url: options.globalUrl, secret: GLOBAL_SECRET, maxAttempts: 1 })] : []),
    ],
    now: () => new Date(fixture.clock.now),
    retryDelayMs: RETRY_DELAY_MS,
    ...(options.maxDeliveries !== undefined ? { maxDeliveries: options.maxDeliveries } : {}),
    ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
  });
}

/** A received event, verified with the `standardwebhooks` package against `secret` (throws if not authentic). */
export function verifiedEvent(secret: string, webhook: ReceivedWebhook): { type: string; timestamp: string; data: Record<string, unknown> } {
  return verifiedByStandardWebhooks(secret, webhook) as { type: string; timestamp: string; data: Record<string, unknown> };
}
