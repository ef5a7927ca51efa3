import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhookBody, verifyWebhookSignature } from "@/lib/notifiers";

const secret = "whsec_0123456789abcdef";
const body = '{"kind":"question-opened","id":"q_1"}';
const sentAt = 1_800_000_000;
const now = sentAt * 1000 + 2_000;

describe("a webhook signature", () => {
  it("is an HMAC-SHA256 of timestamp.body in the Parley-Signature format", () => {
    const expected = createHmac("sha256", secret).update(`${sentAt}.${body}`).digest("hex");
    expect(signWebhookBody(secret, body, sentAt)).toBe(`t=${sentAt},v1=${expected}`);
  });

  it("verifies with the shared secret and the raw body", () => {
    expect(verifyWebhookSignature(secret, signWebhookBody(secret, body, sentAt), body, 300, now)).toEqual({ ok: true, timestamp: sentAt });
  });

  it("verifies a body given as bytes", () => {
    expect(verifyWebhookSignature(secret, signWebhookBody(secret, body, sentAt), Buffer.from(body), 300, now).ok).toBe(true);
  });

  it("is refused when the body was tampered with", () => {
    const header = signWebhookBody(secret, body, sentAt);
    expect(verifyWebhookSignature(secret, header, body.replace("q_1", "q_2"), 300, now)).toEqual({ ok: false, reason: "mismatch" });
  });

  it("is refused when the timestamp was changed without re-signing", () => {
    const header = signWebhookBody(secret, body, sentAt).replace(`t=${sentAt}`, `t=${sentAt + 1}`);
    expect(verifyWebhookSignature(secret, header, body, 300, now)).toEqual({ ok: false, reason: "mismatch" });
  });

  it("is refused when made with another secret", () => {
    const header = signWebhookBody("another-secret-entirely", body, sentAt);
    expect(verifyWebhookSignature(secret, header, body, 300, now)).toEqual({ ok: false, reason: "mismatch" });
  });

  it("is refused as stale when older than the tolerance, even if it matches", () => {
    const header = signWebhookBody(secret, body, sentAt);
    expect(verifyWebhookSignature(secret, header, body, 300, (sentAt + 301) * 1000)).toEqual({ ok: false, reason: "stale" });
  });

  it("is refused as stale when further ahead than the tolerance", () => {
    const header = signWebhookBody(secret, body, sentAt + 301);
    expect(verifyWebhookSignature(secret, header, body, 300, sentAt * 1000)).toEqual({ ok: false, reason: "stale" });
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["without a timestamp", `v1=${"a".repeat(64)}`],
    ["without a v1 signature", `t=${sentAt}`],
    ["with a signature that is not 64 hex digits", `t=${sentAt},v1=abc`],
    ["with a timestamp that is not a number", `t=soon,v1=${"a".repeat(64)}`],
  ])("is refused as malformed when the header is %s", (_, header) => {
    expect(verifyWebhookSignature(secret, header, body, 300, now)).toEqual({ ok: false, reason: "malformed" });
  });

  it("verifies when any one of several v1 signatures matches, so a secret can be rotated", () => {
    const current = signWebhookBody(secret, body, sentAt).split(",v1=")[1];
    const old = signWebhookBody("the-previous-secret-value", body, sentAt).split(",v1=")[1];
    expect(verifyWebhookSignature(secret, `t=${sentAt},v1=${old},v1=${current}`, body, 300, now).ok).toBe(true);
  });
});
