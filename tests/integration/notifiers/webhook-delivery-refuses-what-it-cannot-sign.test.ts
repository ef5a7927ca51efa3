import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverWebhook, newWebhookSecret, type WebhookDelivery } from "@/lib/notifiers";
import { startWebhookReceiver } from "./support/webhook-receiver";

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
beforeAll(async () => {
  receiver = await startWebhookReceiver(() => ({ status: 200 }));
});
afterAll(() => receiver.close());

const message = { id: "evt_1", type: "ask.nothing", timestamp: new Date("2026-12-02T10:30:00.000Z"), data: { id: "ask_1" } };

describe("deliverWebhook", () => {
  it.each<[string, (url: string) => Omit<WebhookDelivery, "maxAttempts">]>([
    ["a secret that is not whsec_", (url) => ({ url, secret: "receiver-and-parley-share-this", message })],
    ["a whsec_ secret shorter than 24 bytes", (url) => ({ url, secret: `whsec_${Buffer.alloc(16, 1).toString("base64")}`, message })],
    ["no secret at all", (url) => ({ url, secret: [], message })],
    ["a URL that is not http(s)", () => ({ url: "file:///etc/passwd", secret: newWebhookSecret(), message })],
    ["a URL that is not a URL", () => ({ url: "hooks", secret: newWebhookSecret(), message })],
    ["an id with a full stop", (url) => ({ url, secret: newWebhookSecret(), message: { ...message, id: "evt.1" } })],
    ["an id with a space", (url) => ({ url, secret: newWebhookSecret(), message: { ...message, id: "evt 1" } })],
    ["an event type that is not full-stop delimited", (url) => ({ url, secret: newWebhookSecret(), message: { ...message, type: "ask nothing" } })],
    ["a timestamp that is not a date", (url) => ({ url, secret: newWebhookSecret(), message: { ...message, timestamp: new Date("soon") } })],
    ["data that is not JSON", (url) => ({ url, secret: newWebhookSecret(), message: { ...message, data: { count: 1n } } })],
  ])("reports %s as a final failure without sending anything or throwing", async (_, delivery) => {
    const report = await deliverWebhook({ ...delivery(receiver.url), maxAttempts: 3 });
    expect(report).toEqual({
      notifier: "webhook",
      status: "failed",
      retryable: false,
      attempts: [{ attempt: 1, outcome: "rejected", error: expect.stringMatching(/^not sent: /), durationMs: 0 }],
    });
    expect(receiver.received).toHaveLength(0);
  });
});
