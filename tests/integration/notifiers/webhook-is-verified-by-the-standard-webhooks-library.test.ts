import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookNotifier, newWebhookSecret, verifyStandardWebhook } from "@/lib/notifiers";
import { sampleNotice } from "./support/sample-notice";
import { verifiedByStandardWebhooks } from "./support/standard-webhooks";
import { startWebhookReceiver, type ReceivedWebhook } from "./support/webhook-receiver";

const secret = newWebhookSecret();
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let webhook: ReceivedWebhook;

beforeAll(async () => {
  receiver = await startWebhookReceiver(() => ({ status: 204 }));
  const report = await createWebhookNotifier({ url: receiver.url, secret }).notify(sampleNotice());
  expect(report.status).toBe("delivered");
  webhook = receiver.received[0]!;
});
afterAll(() => receiver.close());

describe("a webhook as received", () => {
  it("is verified by the standardwebhooks package, which returns its body", () => {
    expect(verifiedByStandardWebhooks(secret, webhook)).toEqual(JSON.parse(webhook.body));
  });

  it("is verified by verifyStandardWebhook too, under its webhook-id", () => {
    expect(verifyStandardWebhook(secret, webhook.headers, webhook.body)).toMatchObject({ ok: true, id: webhook.headers["webhook-id"] });
  });

  it("fails verification in both when its body was tampered with", () => {
    const tampered = { ...webhook, body: webhook.body.replace("Was the water damage", "Was the fire damage") };
    expect(tampered.body).not.toBe(webhook.body);
    expect(() => verifiedByStandardWebhooks(secret, tampered)).toThrow(WebhookVerificationError);
    expect(verifyStandardWebhook(secret, tampered.headers, tampered.body)).toEqual({ ok: false, reason: "mismatch" });
  });

  it("fails verification in both with another secret", () => {
    const other = newWebhookSecret();
    expect(() => verifiedByStandardWebhooks(other, webhook)).toThrow(WebhookVerificationError);
    expect(verifyStandardWebhook(other, webhook.headers, webhook.body)).toEqual({ ok: false, reason: "mismatch" });
  });

  it("carries a content type and a user agent beside the three webhook- headers", () => {
    expect(webhook.headers["content-type"]).toBe("application/json");
    expect(webhook.headers["user-agent"]).toMatch(/^Parley-Webhook\//);
    expect(webhook.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(webhook.headers["webhook-timestamp"]).toMatch(/^\d+$/);
    // The package checks the signature with the raw secret's bytes, not its text: the same key.
    expect(new Webhook(secret).sign(webhook.headers["webhook-id"] as string, new Date(Number(webhook.headers["webhook-timestamp"]) * 1000), webhook.body)).toBe(
      webhook.headers["webhook-signature"],
    );
  });
});
