import { afterEach, describe, expect, it } from "vitest";
import { createWebhookNotifier, newWebhookSecret, noticeDeliveryId } from "@/lib/notifiers";
import { sampleNotice } from "./support/sample-notice";
import { verifiedByStandardWebhooks } from "./support/standard-webhooks";
import { startWebhookReceiver } from "./support/webhook-receiver";

const secret = newWebhookSecret();
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("a webhook", () => {
  it("is retried after 503s until the receiver accepts it, each try freshly signed under the same webhook-id", async () => {
    receiver = await startWebhookReceiver((index) => ({ status: index < 2 ? 503 : 204 }));
    const notice = sampleNotice();
    // Each try is signed two seconds after the last, so a reused timestamp or signature would show.
    let clock = Date.now();
    const now = () => (clock += 2_000);
    const report = await createWebhookNotifier({ url: receiver.url, secret, retryDelayMs: 20, random: () => 0.999, now }).notify(notice);

    expect(report.status).toBe("delivered");
    expect(report.attempts.map((attempt) => [attempt.outcome, attempt.statusCode])).toEqual([
      ["rejected", 503],
      ["rejected", 503],
      ["accepted", 204],
    ]);
    expect(receiver.received).toHaveLength(3);
    for (const webhook of receiver.received) expect(() => verifiedByStandardWebhooks(secret, webhook)).not.toThrow();
    expect(new Set(receiver.received.map((webhook) => webhook.headers["webhook-id"]))).toEqual(new Set([noticeDeliveryId(notice)]));
    const timestamps = receiver.received.map((webhook) => Number(webhook.headers["webhook-timestamp"]));
    expect(timestamps[1]).toBeGreaterThan(timestamps[0]!);
    expect(timestamps[2]).toBeGreaterThan(timestamps[1]!);
    expect(new Set(receiver.received.map((webhook) => webhook.headers["webhook-signature"])).size).toBe(3);
    // The message is the same on every try; only its signing differs.
    expect(new Set(receiver.received.map((webhook) => webhook.body)).size).toBe(1);
  });

  it("waits longer before each retry", async () => {
    receiver = await startWebhookReceiver((index) => ({ status: index < 2 ? 500 : 200 }));
    await createWebhookNotifier({ url: receiver.url, secret, retryDelayMs: 60, random: () => 0.999 }).notify(sampleNotice());
    const [first, second, third] = receiver.received.map((webhook) => webhook.receivedAt);
    // With full jitter taken out (random ≈ 1), the waits are ≈ 60 ms, then ≈ 120 ms.
    expect(second! - first!).toBeGreaterThanOrEqual(55);
    expect(third! - second!).toBeGreaterThanOrEqual(115);
    for (const webhook of receiver.received) expect(() => verifiedByStandardWebhooks(secret, webhook)).not.toThrow();
  });

  it("is retried after a 429, no sooner than the receiver's Retry-After", async () => {
    receiver = await startWebhookReceiver((index) => (index === 0 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 }));
    const report = await createWebhookNotifier({ url: receiver.url, secret, retryDelayMs: 10, maxRetryDelayMs: 5_000 }).notify(sampleNotice());
    expect(report.status).toBe("delivered");
    const [first, second] = receiver.received.map((webhook) => webhook.receivedAt);
    expect(second! - first!).toBeGreaterThanOrEqual(990);
    for (const webhook of receiver.received) expect(() => verifiedByStandardWebhooks(secret, webhook)).not.toThrow();
  });

  it("gives up after the configured number of tries, as a failure worth retrying later", async () => {
    receiver = await startWebhookReceiver(() => ({ status: 502 }));
    const report = await createWebhookNotifier({ url: receiver.url, secret, maxAttempts: 3, retryDelayMs: 5 }).notify(sampleNotice());
    expect(report).toMatchObject({ notifier: "webhook", status: "failed", retryable: true });
    expect(report.attempts).toHaveLength(3);
    expect(receiver.received).toHaveLength(3);
    for (const webhook of receiver.received) expect(() => verifiedByStandardWebhooks(secret, webhook)).not.toThrow();
  });
});
