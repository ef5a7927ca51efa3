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

async function receivedBody(notice: ReturnType<typeof sampleNotice>) {
  receiver = await startWebhookReceiver(() => ({ status: 200 }));
  await createWebhookNotifier({ url: receiver.url, secret }).notify(notice);
  const [webhook] = receiver.received;
  return { webhook: webhook!, body: verifiedByStandardWebhooks(secret, webhook!) };
}

const recipients = [
  { user_id: "u_sam", name: "Sam Rivera", email: "sam@example.com" },
  { user_id: "u_alex", name: "Alex Chen", email: "alex@example.com" },
];

describe("a webhook's body", () => {
  it("is question.opened with the time the question opened and the notice in snake_case as its data", async () => {
    const notice = sampleNotice();
    const { webhook, body } = await receivedBody(notice);
    expect(body).toEqual({
      type: "question.opened",
      timestamp: "2026-12-02T09:00:00.000Z",
      data: {
        id: "q_0123",
        url: "https://parley.example.com/questions/q_0123",
        question: "Was the water damage reported within 14 days?",
        asked_by: "Coverage auditor",
        subject: "Claim C-1042 (burst pipe, kitchen)",
        recipients,
        opened_at: "2026-12-02T09:00:00.000Z",
        due_at: "2026-12-03T09:00:00.000Z",
      },
    });
    expect(webhook.headers["webhook-id"]).toBe(noticeDeliveryId(notice));
  });

  it("is question.reminded for a reminder, at the time of the reminder, saying who sent it", async () => {
    const notice = sampleNotice({ kind: "reminder", remindedAt: "2026-12-02T15:00:00.000Z", remindedBy: "Dana" });
    const { webhook, body } = await receivedBody(notice);
    expect(body).toEqual({
      type: "question.reminded",
      timestamp: "2026-12-02T15:00:00.000Z",
      data: expect.objectContaining({ id: "q_0123", recipients, reminded_at: "2026-12-02T15:00:00.000Z", reminded_by: "Dana" }),
    });
    expect(webhook.headers["webhook-id"]).toBe(noticeDeliveryId(notice));
  });
});
