import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signStandardWebhook, verifyStandardWebhook } from "@/lib/notifiers";

const secret = `whsec_${Buffer.from("a fixed key of thirty-two bytes!").toString("base64")}`;
const id = "q_1:question-opened";
const body = '{"type":"question.opened","timestamp":"2027-01-15T08:00:00.000Z","data":{"id":"q_1"}}';
const sentAt = new Date(1_800_000_000_000);
const now = new Date(sentAt.getTime() + 2_000);
const signed = signStandardWebhook({ secret, id, timestamp: sentAt, body });

describe("a Standard Webhooks signature", () => {
  it("is v1 and the base64 HMAC-SHA256 of id.timestamp.body, keyed with the secret's decoded bytes", () => {
    const expected = createHmac("sha256", Buffer.from("a fixed key of thirty-two bytes!")).update(`${id}.1800000000.${body}`).digest("base64");
    expect(signed).toEqual({ "webhook-id": id, "webhook-timestamp": "1800000000", "webhook-signature": `v1,${expected}` });
  });

  it("verifies with the secret and the raw body, giving the id to drop repeats by", () => {
    expect(verifyStandardWebhook(secret, signed, body, { now })).toEqual({ ok: true, id, timestamp: new Date(1_800_000_000_000) });
  });

  it("verifies a body given as bytes, and headers given as Headers or with any capitalisation", () => {
    const capitalised = { "Webhook-Id": id, "WEBHOOK-TIMESTAMP": signed["webhook-timestamp"], "Webhook-Signature": signed["webhook-signature"] };
    expect(verifyStandardWebhook(secret, signed, Buffer.from(body), { now }).ok).toBe(true);
    expect(verifyStandardWebhook(secret, new Headers(signed), body, { now }).ok).toBe(true);
    expect(verifyStandardWebhook(secret, capitalised, body, { now }).ok).toBe(true);
  });

  it.each([
    ["the body was tampered with", { ...signed }, body.replace("q_1", "q_2")],
    ["the id was changed", { ...signed, "webhook-id": "q_2:question-opened" }, body],
    ["the timestamp was changed without re-signing", { ...signed, "webhook-timestamp": "1800000001" }, body],
    ["it was signed with another secret", signStandardWebhook({ secret: newWebhookSecret(), id, timestamp: sentAt, body }), body],
    ["its signature is not v1", { ...signed, "webhook-signature": signed["webhook-signature"].replace("v1,", "v1a,") }, body],
  ])("is refused as a mismatch when %s", (_, headers, received) => {
    expect(verifyStandardWebhook(secret, headers, received, { now })).toEqual({ ok: false, reason: "mismatch" });
  });

  it("is refused as stale when older than the tolerance, even though it matches", () => {
    expect(verifyStandardWebhook(secret, signed, body, { now: new Date(sentAt.getTime() + 301_000), toleranceSeconds: 300 })).toEqual({ ok: false, reason: "stale" });
  });

  it("is refused as stale when further ahead than the tolerance", () => {
    expect(verifyStandardWebhook(secret, signed, body, { now: new Date(sentAt.getTime() - 301_000), toleranceSeconds: 300 })).toEqual({ ok: false, reason: "stale" });
  });

  it.each([
    ["without webhook-id", { ...signed, "webhook-id": undefined }],
    ["without webhook-timestamp", { ...signed, "webhook-timestamp": undefined }],
    ["without webhook-signature", { ...signed, "webhook-signature": "" }],
    ["with a timestamp that is not whole seconds", { ...signed, "webhook-timestamp": "1800000000.5" }],
    ["with a timestamp that is not a number", { ...signed, "webhook-timestamp": "soon" }],
  ])("is refused as malformed %s", (_, headers) => {
    expect(verifyStandardWebhook(secret, headers, body, { now })).toEqual({ ok: false, reason: "malformed" });
  });

  it("verifies when any one of several space-separated signatures matches, so a secret can be rotated", () => {
    const both = signStandardWebhook({ secret: [newWebhookSecret(), secret], id, timestamp: sentAt, body });
    expect(both["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    expect(verifyStandardWebhook(secret, both, body, { now }).ok).toBe(true);
  });

  it("verifies with either of two secrets a receiver holds while one replaces the other", () => {
    expect(verifyStandardWebhook([newWebhookSecret(), secret], signed, body, { now }).ok).toBe(true);
  });

  it("cannot be made for an id with a full stop, which would blur where the id ends", () => {
    expect(() => signStandardWebhook({ secret, id: "q_1.reminder", timestamp: sentAt, body })).toThrow(TypeError);
  });

  it.each([
    ["made", () => signStandardWebhook({ secret: "hunter2-hunter2-hunter2", id, timestamp: sentAt, body })],
    ["checked", () => verifyStandardWebhook("hunter2-hunter2-hunter2", signed, body, { now })],
  ])("cannot be %s with a secret that is not whsec_, and the error does not repeat the secret", (_, use) => {
    expect(use).toThrow(TypeError);
    expect(use).not.toThrow(/hunter2/);
  });
});
