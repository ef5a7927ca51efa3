import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, expectTypeOf, it } from "vitest";
import { type ParleyEvent, ParleyWebhookError, verifyWebhook, verifyWebhookRequest } from "@parleyhq/client/webhooks";

// Signed by the standardwebhooks package (nobody here wrote it), verified by the client's helper.
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
const secret = newSecret();
const answered = {
  type: "ask.answered",
  timestamp: "2026-12-06T10:00:00.000Z",
  data: { id: "ask_1", status: "answered", answer: { decision: "approve" }, metadata: { thread: "t-1" } },
};

function signed(body: string, options: { secret?: string; id?: string; at?: Date } = {}) {
  const id = options.id ?? "msg_1";
  const at = options.at ?? new Date();
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(options.secret ?? secret).sign(id, at, body),
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ParleyWebhookError);
  return (error as ParleyWebhookError).reason;
}

describe("verifyWebhook (@parleyhq/client/webhooks)", () => {
  it("returns a signed event with its id, type and data", async () => {
    const body = JSON.stringify(answered);
    const event = await verifyWebhook({ secret, headers: signed(body), body });
    expect(event).toEqual({ id: "msg_1", type: "ask.answered", timestamp: answered.timestamp, data: answered.data });
    expectTypeOf(event).toEqualTypeOf<ParleyEvent>();
    if (event.type === "ask.answered") expectTypeOf(event.data.answer).toEqualTypeOf<Record<string, unknown> | string>();
  });

  it("refuses a body changed after signing", async () => {
    const body = JSON.stringify(answered);
    expect(await refusal(verifyWebhook({ secret, headers: signed(body), body: body.replace("approve", "reject") }))).toBe("mismatch");
  });

  it("refuses a webhook signed with another secret", async () => {
    const body = JSON.stringify(answered);
    expect(await refusal(verifyWebhook({ secret, headers: signed(body, { secret: newSecret() }), body }))).toBe("mismatch");
  });

  it("accepts either secret while one is being rotated", async () => {
    const body = JSON.stringify(answered);
    const next = newSecret();
    await expect(verifyWebhook({ secret: [secret, next], headers: signed(body, { secret: next }), body })).resolves.toMatchObject({ type: "ask.answered" });
  });

  it("refuses a webhook signed more than five minutes ago, as a replay", async () => {
    const body = JSON.stringify(answered);
    const headers = signed(body, { at: new Date(Date.now() - 6 * 60_000) });
    expect(await refusal(verifyWebhook({ secret, headers, body }))).toBe("stale");
    await expect(verifyWebhook({ secret, headers, body, toleranceSeconds: 600 })).resolves.toMatchObject({ id: "msg_1" });
  });

  it("says a missing header is malformed", async () => {
    const body = JSON.stringify(answered);
    const headers: Record<string, string> = signed(body);
    delete headers["webhook-signature"];
    expect(await refusal(verifyWebhook({ secret, headers, body }))).toBe("malformed");
  });

  it("hands a signed event of a type it does not know back as unknown-type, with its body", async () => {
    const envelope = { type: "ask.reopened", timestamp: answered.timestamp, data: { id: "ask_1" } };
    const body = JSON.stringify(envelope);
    const error = await verifyWebhook({ secret, headers: signed(body), body }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ reason: "unknown-type", body: envelope });
  });

  it("reads a Fetch Request's body and headers", async () => {
    const body = JSON.stringify({ ...answered, type: "ask.nothing", data: { id: "ask_2", status: "nothing", reason: "expired" } });
    const request = new Request("http://127.0.0.1/parley", { method: "POST", headers: signed(body), body });
    const event = await verifyWebhookRequest(request, { secret });
    expect(event.type === "ask.nothing" && event.data.reason).toBe("expired");
  });

  it("refuses a secret that is not a whsec_ secret before checking anything", async () => {
    const body = JSON.stringify(answered);
    await expect(verifyWebhook({ secret: "whsec_%%%", headers: signed(body), body })).rejects.toThrow(TypeError);
  });
});
