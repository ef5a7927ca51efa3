import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signStandardWebhook, verifyStandardWebhook, type StandardWebhookHeaders } from "@/lib/notifiers";

// The package reads the clock itself, so these cases are signed relative to the real time.
const secret = newWebhookSecret();
const id = "evt_ask_1:answered";
const body = '{"type":"ask.answered","timestamp":"2027-01-15T08:00:00.000Z","data":{"id":"ask_1"}}';
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);
const sign = (overrides: { secret?: string | string[]; timestamp?: Date } = {}) =>
  signStandardWebhook({ secret: overrides.secret ?? secret, id, timestamp: overrides.timestamp ?? secondsAgo(1), body });

function packageAccepts(headers: Partial<StandardWebhookHeaders>, received: string): boolean {
  try {
    new Webhook(secret).verify(received, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

describe("verifyStandardWebhook and the standardwebhooks package", () => {
  it.each<[string, () => Partial<StandardWebhookHeaders>, string, boolean]>([
    ["a message as signed", () => sign(), body, true],
    ["a message signed with the old and the new secret", () => sign({ secret: [newWebhookSecret(), secret] }), body, true],
    ["a message signed four minutes ago", () => sign({ timestamp: secondsAgo(240) }), body, true],
    ["a tampered body", () => sign(), body.replace("ask_1", "ask_2"), false],
    ["another secret", () => sign({ secret: newWebhookSecret() }), body, false],
    ["another id", () => ({ ...sign(), "webhook-id": "evt_ask_2:answered" }), body, false],
    ["a timestamp changed without re-signing", () => ({ ...sign({ timestamp: secondsAgo(10) }), "webhook-timestamp": sign({ timestamp: secondsAgo(5) })["webhook-timestamp"] }), body, false],
    ["a message signed six minutes ago", () => sign({ timestamp: secondsAgo(360) }), body, false],
    ["a message signed six minutes ahead", () => sign({ timestamp: secondsAgo(-360) }), body, false],
    ["a missing signature", () => ({ ...sign(), "webhook-signature": undefined }), body, false],
    ["a signature of another version only", () => ({ ...sign(), "webhook-signature": sign()["webhook-signature"].replace("v1,", "v2,") }), body, false],
    ["a garbled signature", () => ({ ...sign(), "webhook-signature": "v1,not-base64!" }), body, false],
  ])("agree on %s", (_, headers, received, valid) => {
    const given = headers();
    expect(packageAccepts(given, received)).toBe(valid);
    expect(verifyStandardWebhook(secret, given as Record<string, string | undefined>, received).ok).toBe(valid);
  });

  it("agree on what the package signs: verifyStandardWebhook accepts it", () => {
    const timestamp = secondsAgo(1);
    const signature = new Webhook(secret).sign(id, timestamp, body);
    const headers = { "webhook-id": id, "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)), "webhook-signature": signature };
    expect(signature).toBe(sign({ timestamp })["webhook-signature"]);
    expect(verifyStandardWebhook(secret, headers, body).ok).toBe(true);
  });
});
