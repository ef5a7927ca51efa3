import { afterEach, describe, expect, it } from "vitest";
import { deliverWebhook, newWebhookSecret } from "@/lib/notifiers";
import { verifiedByStandardWebhooks } from "./support/standard-webhooks";
import { startWebhookReceiver } from "./support/webhook-receiver";

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

// An event that is not a question notice, as the HTTP API sends to an ask's callback URL.
const answered = {
  id: "evt_ask_7f3a:answered",
  type: "ask.answered",
  timestamp: new Date("2026-12-02T10:30:00.000Z"),
  data: { id: "ask_7f3a", status: "answered", answer: { approve: true }, answered_at: "2026-12-02T10:30:00.000Z" },
};

describe("deliverWebhook", () => {
  it("sends any event as a Standard Webhook, signed with the secret it is given", async () => {
    receiver = await startWebhookReceiver(() => ({ status: 200 }));
    const secret = newWebhookSecret();
    const report = await deliverWebhook({ url: receiver.url, secret, message: answered });

    expect(report).toMatchObject({ notifier: "webhook", status: "delivered" });
    const [webhook] = receiver.received;
    expect(webhook!.headers["webhook-id"]).toBe(answered.id);
    expect(verifiedByStandardWebhooks(secret, webhook!)).toEqual({ type: "ask.answered", timestamp: "2026-12-02T10:30:00.000Z", data: answered.data });
  });

  it("signs with each of several secrets, so a receiver holding either the old or the new one verifies it", async () => {
    receiver = await startWebhookReceiver(() => ({ status: 200 }));
    const [previous, next] = [newWebhookSecret(), newWebhookSecret()];
    await deliverWebhook({ url: receiver.url, secret: [next, previous], message: answered });

    const [webhook] = receiver.received;
    expect((webhook!.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    expect(() => verifiedByStandardWebhooks(previous, webhook!)).not.toThrow();
    expect(() => verifiedByStandardWebhooks(next, webhook!)).not.toThrow();
  });
});
