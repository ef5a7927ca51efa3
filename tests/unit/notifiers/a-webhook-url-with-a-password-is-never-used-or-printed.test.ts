import { describe, expect, it } from "vitest";
import { deliveryFailureReason } from "@/lib/notifications/failed-deliveries";
import { webhookEventTarget } from "@/lib/notifications/outbox";
import { createWebhookNotifier, deliverWebhook, newWebhookSecret, NotifierConfigurationError, webhookOptionsFromEnvironment } from "@/lib/notifiers";

const PASSWORD = "s3cret-in-the-url";
const URL_WITH_PASSWORD = `https://parley:${PASSWORD}@hooks.example.test/parley`;
const secret = newWebhookSecret();

function thrown(act: () => unknown): Error {
  try {
    act();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}

describe("a webhook URL with a user name or password", () => {
  it("in PARLEY_WEBHOOK_URL stops start-up naming the variable, not its value", () => {
    const error = thrown(() => webhookOptionsFromEnvironment({ PARLEY_WEBHOOK_URL: URL_WITH_PASSWORD, PARLEY_WEBHOOK_SECRET: secret }));
    expect(error).toBeInstanceOf(NotifierConfigurationError);
    expect(error).toMatchObject({ variable: "PARLEY_WEBHOOK_URL" });
    expect(error.message).toMatch(/user name or password/);
    expect(error.message).not.toContain(PASSWORD);
  });

  it("is refused by the webhook notifier and the global receiver's target, without printing it", () => {
    for (const make of [() => createWebhookNotifier({ url: URL_WITH_PASSWORD, secret }), () => webhookEventTarget({ url: URL_WITH_PASSWORD, secret })]) {
      const error = thrown(make);
      expect(error.message).toMatch(/user name or password/);
      expect(error.message).not.toContain(PASSWORD);
    }
  });

  it("is not sent, is not retried, and its report does not hold the password", async () => {
    const report = await deliverWebhook({
      // Never contacted: refused before any request (a loopback address all the same).
      url: `http://parley:${PASSWORD}@127.0.0.1:9/hooks`,
      secret,
      message: { id: "msg_1", type: "ask.answered", timestamp: new Date(), data: {} },
      maxAttempts: 3,
    });
    expect(report).toMatchObject({ status: "failed", retryable: false, attempts: [{ attempt: 1, outcome: "rejected" }] });
    expect(report.attempts).toHaveLength(1);
    expect(JSON.stringify(report)).not.toContain(PASSWORD);
  });

  it("in a report stored before this refusal is shown and logged without its password", () => {
    const stored = {
      notifier: "callback",
      status: "failed" as const,
      retryable: true,
      attempts: [{ attempt: 1, outcome: "network-error" as const, error: `Request cannot be constructed from a URL that includes credentials: http://parley:${PASSWORD}@10.0.0.7/hooks`, durationMs: 1 }],
    };
    const reason = deliveryFailureReason(stored);
    expect(reason).toContain("http://***@10.0.0.7/hooks");
    expect(reason).not.toContain(PASSWORD);
  });
});
