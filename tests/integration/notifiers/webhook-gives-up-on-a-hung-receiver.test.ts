import { afterEach, expect, it } from "vitest";
import { createWebhookNotifier, newWebhookSecret, webhookDeliveryBoundMs } from "@/lib/notifiers";
import { sampleNotice } from "./support/sample-notice";
import { verifiedByStandardWebhooks } from "./support/standard-webhooks";
import { startWebhookReceiver } from "./support/webhook-receiver";

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

it("a receiver that never answers holds the webhook no longer than its tries' timeouts and waits", async () => {
  receiver = await startWebhookReceiver(() => "hang");
  const options = { url: receiver.url, secret: newWebhookSecret(), maxAttempts: 2, attemptTimeoutMs: 300, retryDelayMs: 10, maxRetryDelayMs: 10 };
  const started = Date.now();
  const report = await createWebhookNotifier(options).notify(sampleNotice());
  const elapsed = Date.now() - started;

  expect(report).toMatchObject({ status: "failed", retryable: true });
  expect(report.attempts.map((attempt) => attempt.outcome)).toEqual(["timeout", "timeout"]);
  expect(receiver.received).toHaveLength(2);
  for (const webhook of receiver.received) expect(() => verifiedByStandardWebhooks(options.secret, webhook)).not.toThrow();
  expect(elapsed).toBeGreaterThanOrEqual(600);
  expect(elapsed).toBeLessThan(webhookDeliveryBoundMs(options) + 1_500);
});
