import { describe, expect, it } from "vitest";
import { ACTION_BODY_LIMIT_BYTES, refuseMalformedActionRequest, refuseMalformedUrl } from "@/lib/server/request-guard";

const SITE = "http://127.0.0.1:3000";

function call(body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request(`${SITE}/inbox`, {
    method: "POST",
    body,
    headers: { host: "127.0.0.1:3000", origin: SITE, "next-action": "7f00", "content-type": "text/plain;charset=UTF-8", ...headers },
  });
}

async function statusOf(request: Request): Promise<number | null> {
  return (await refuseMalformedActionRequest(request))?.status ?? null;
}

describe("a server action request", () => {
  it("encoded as React encodes form data and plain states goes through", async () => {
    expect(await statusOf(call(JSON.stringify([null, "$K1"])))).toBeNull();
    expect(await statusOf(call(JSON.stringify([{ values: { note: "$$5 off" }, error: "$undefined" }, { away: "false" }])))).toBeNull();
    const form = new FormData();
    form.append("_1_away", "true");
    form.append("0", JSON.stringify([null, "$K1"]));
    expect(await statusOf(new Request(`${SITE}/inbox`, { method: "POST", body: form, headers: { host: "127.0.0.1:3000", origin: SITE, "next-action": "7f00" } }))).toBeNull();
  });

  it("from another origin is refused with 403", async () => {
    expect(await statusOf(call("[]", { origin: "http://evil.example" }))).toBe(403);
    expect(await statusOf(call("[]", { origin: "null" }))).toBe(403);
    expect(await statusOf(call("[]", { origin: "not a url" }))).toBe(403);
  });

  it("over the size limit is refused with 413, stated or streamed", async () => {
    const big = JSON.stringify([null, "x".repeat(ACTION_BODY_LIMIT_BYTES)]);
    expect(await statusOf(call(big))).toBe(413);
    const streamed = new Request(`${SITE}/inbox`, {
      method: "POST",
      body: new Blob([big]).stream(),
      headers: { host: "127.0.0.1:3000", origin: SITE, "next-action": "7f00" },
      duplex: "half",
    } as RequestInit);
    expect(await statusOf(streamed)).toBe(413);
  });

  it("that React's decoder would throw on is refused with 400", async () => {
    for (const body of ["[null, {", "42", '{"0":null}', '["$Q1"]', '["$F1"]', '["$nabc"]', '["$"]', JSON.stringify(new Array(1001).fill(null))]) {
      expect(await statusOf(call(body)), body).toBe(400);
    }
  });

  it("with prototype keys or NUL characters is refused with 400", async () => {
    expect(await statusOf(call('[null, {"__proto__": {"admin": true}}]'))).toBe(400);
    expect(await statusOf(call('[null, {"constructor": "x"}]'))).toBe(400);
    expect(await statusOf(call(JSON.stringify([null, { note: "a\u0000b" }])))).toBe(400);
    const form = new FormData();
    form.append("_1___proto__", "x");
    form.append("0", JSON.stringify([null, "$K1"]));
    expect(await statusOf(new Request(`${SITE}/inbox`, { method: "POST", body: form, headers: { host: "127.0.0.1:3000", origin: SITE, "next-action": "7f00" } }))).toBe(400);
  });

  it("is left alone when it is no server action", async () => {
    expect(await statusOf(new Request(`${SITE}/api/events`, { method: "POST", body: "{", headers: { origin: "http://evil.example" } }))).toBeNull();
    expect(await statusOf(new Request(`${SITE}/inbox`))).toBeNull();
  });
});

describe("a URL", () => {
  it("that does not decode, or holds a NUL character, is refused with 400", () => {
    expect(refuseMalformedUrl(new Request(`${SITE}/questions/%E0%A4%A`))?.status).toBe(400);
    expect(refuseMalformedUrl(new Request(`${SITE}/questions/a%00b`))?.status).toBe(400);
    expect(refuseMalformedUrl(new Request(`${SITE}/admin/sla?agent=%00`))?.status).toBe(400);
    expect(refuseMalformedUrl(new Request(`${SITE}/questions/caf%C3%A9?view=all`))).toBeNull();
  });
});
