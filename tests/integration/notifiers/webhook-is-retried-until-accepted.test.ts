import { afterEach, describe, expect, it } from "vitest";
import { createWebhookNotifier, noticeDeliveryId, verifyWebhookSignature, WEBHOOK_SIGNATURE_HEADER } from "@/lib/notifiers";
import { sampleNotice } from "./support/sample-notice";
import { startWebhookReceiver, type ReceivedWebhook } from "./support/webhook-receiver";

const secret = "receiver-and-parley-share-this";
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function signatureOf(webhook: ReceivedWebhook) {
  return verifyWebhookSignature(secret, webhook.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string, webhook.body, 60);
}

describe("a webhook", () => {
  it("is retried after 503s until the receiver accepts it, each try signed and with the same idempotency key", async () => {
    receiver = await startWebhookReceiver((index) => ({ status: index < 2 ? 503 : 204 }));
    const notice = sampleNotice();
    const report = await createWebhookNotifier({ url: receiver.url, secret, retryDelayMs: 20, random: () => 0.999 }).notify(notice);

    expect(report.status).toBe("delivered");
    expect(report.attempts.map((attempt) => [attempt.outcome, attempt.statusCode])).toEqual([
      ["rejected", 503],
      ["rejected", 503],
      ["accepted", 204],
    ]);
    expect(receiver.received).toHaveLength(3);
    for (const webhook of receiver.received) {
      expect(signatureOf(webhook).ok).toBe(true);
      expect(webhook.headers["idempotency-key"]).toBe(noticeDeliveryId(notice));
      expect(webhook.headers["parley-event"]).toBe("question-opened");
      expect(webhook.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(webhook.body)).toEqual(notice);
    }
  });

  it("waits longer before each retry", async () => {
    receiver = await startWebhookReceiver((index) => ({ status: index < 2 ? 500 : 200 }));
    await createWebhookNotifier({ url: receiver.url, secret, retryDelayMs: 60, random: () => 0.999 }).notify(sampleNotice());
    const [first, second, third] = receiver.received.map((webhook) => webhook.receivedAt);
    // With full jitter taken out (random ≈ 1), the waits are ≈ 60 ms, then ≈ 120 ms.
    expect(second! - first!).toBeGreaterThanOrEqual(55);
    expect(third! - second!).toBeGreaterThanOrEqual(115);
  });

  it("is retried after a 429, no sooner than the receiver's Retry-After", async () => {
    receiver = await startWebhookReceiver((index) => (index === 0 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 }));
    const report = await createWebhookNotifier({ url: receiver.url, secret, retryDelayMs: 10, maxRetryDelayMs: 5_000 }).notify(sampleNotice());
    expect(report.status).toBe("delivered");
    const [first, second] = receiver.received.map((webhook) => webhook.receivedAt);
    expect(second! - first!).toBeGreaterThanOrEqual(990);
  });

  it("gives up after the configured number of tries, as a failure worth retrying later", async () => {
    receiver = await startWebhookReceiver(() => ({ status: 502 }));
    const report = await createWebhookNotifier({ url: receiver.url, secret, maxAttempts: 3, retryDelayMs: 5 }).notify(sampleNotice());
    expect(report).toMatchObject({ notifier: "webhook", status: "failed", retryable: true });
    expect(report.attempts).toHaveLength(3);
    expect(receiver.received).toHaveLength(3);
  });
});
