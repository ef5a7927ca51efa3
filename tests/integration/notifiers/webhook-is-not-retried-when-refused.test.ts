import { afterEach, describe, expect, it } from "vitest";
import { createWebhookNotifier, newWebhookSecret } from "@/lib/notifiers";
import { sampleNotice } from "./support/sample-notice";
import { verifiedByStandardWebhooks } from "./support/standard-webhooks";
import { startWebhookReceiver } from "./support/webhook-receiver";

const secret = newWebhookSecret();
const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

describe("a webhook", () => {
  it("is not retried when the receiver answers 400, and the failure is final", async () => {
    const receiver = await startWebhookReceiver(() => ({ status: 400 }));
    receivers.push(receiver);
    const report = await createWebhookNotifier({ url: receiver.url, secret, retryDelayMs: 5 }).notify(sampleNotice());
    expect(report).toEqual({
      notifier: "webhook",
      status: "failed",
      retryable: false,
      attempts: [expect.objectContaining({ attempt: 1, outcome: "rejected", statusCode: 400 })],
    });
    expect(receiver.received).toHaveLength(1);
    expect(() => verifiedByStandardWebhooks(secret, receiver.received[0]!)).not.toThrow();
  });

  it("does not follow a redirect to another address", async () => {
    const elsewhere = await startWebhookReceiver(() => ({ status: 200 }));
    const receiver = await startWebhookReceiver(() => ({ status: 307, headers: { location: elsewhere.url } }));
    receivers.push(elsewhere, receiver);
    const report = await createWebhookNotifier({ url: receiver.url, secret, retryDelayMs: 5 }).notify(sampleNotice());
    expect(report).toMatchObject({ status: "failed", retryable: false });
    expect(elsewhere.received).toHaveLength(0);
    expect(receiver.received).toHaveLength(1);
    expect(() => verifiedByStandardWebhooks(secret, receiver.received[0]!)).not.toThrow();
  });
});
