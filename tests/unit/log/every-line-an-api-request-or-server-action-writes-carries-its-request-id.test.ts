import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { log } from "@/lib/log";
import { apiRoute } from "@/lib/server/api-request";
import { defineAction } from "@/lib/server/define-action";
import { captureLog } from "@/tests/support/captured-log";

const incoming = vi.hoisted(() => ({ headers: undefined as Headers | undefined }));
vi.mock("@/lib/server/session", () => ({ authorize: async () => ({ id: "u1", roles: ["operator"], name: "Omar", email: "omar@parley.test" }) }));
// As in a server action's request, or — with no headers — as called outside one.
vi.mock("next/headers", () => ({
  headers: async () => {
    if (!incoming.headers) throw new Error("`headers` was called outside a request scope.");
    return incoming.headers;
  },
}));

afterEach(() => {
  incoming.headers = undefined;
  vi.restoreAllMocks();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The request id each captured line carries (`requestId=` in text, the field in JSON). */
function requestIdsOf(lines: { text: string }[]): (string | undefined)[] {
  return lines.map(({ text }) => (text.startsWith("{") ? (JSON.parse(text) as { requestId?: string }).requestId : /\brequestId=(\S+)/.exec(text)?.[1]));
}

describe("an API request", () => {
  it("gets an id that its answer returns as X-Request-Id and every line it writes carries, a failure's too", async () => {
    const captured = captureLog();
    const response = await apiRoute(new Request("http://parley.test/api/v1/asks"), "/api/v1/asks", async () => {
      log.warn("Halfway there.");
      await new Promise((resolve) => setTimeout(resolve, 1));
      throw new Error("boom");
    });
    expect(response.status).toBe(500);
    const id = response.headers.get("x-request-id");
    expect(id).toMatch(UUID);
    const lines = captured.lines().filter((line) => line.level !== "info");
    expect(lines.map((line) => line.level)).toEqual(["warn", "error"]);
    expect(requestIdsOf(lines)).toEqual([id, id]);
  });

  it("keeps the sane X-Request-Id it came with (a proxy in front may set one)", async () => {
    const captured = captureLog();
    const request = new Request("http://parley.test/api/v1/asks", { headers: { "x-request-id": "edge-7f3a9c" } });
    const response = await apiRoute(request, "/api/v1/asks", async () => {
      log.warn("Logged.");
      return Response.json({ ok: true });
    });
    expect(response.headers.get("x-request-id")).toBe("edge-7f3a9c");
    expect(requestIdsOf(captured.lines().filter((line) => line.level === "warn"))).toEqual(["edge-7f3a9c"]);
  });

  it("returns its id on an answer whose headers cannot be changed (a redirect)", async () => {
    captureLog();
    const response = await apiRoute(new Request("http://parley.test/api/v1/asks"), "/api/v1/asks", async () => Response.redirect("http://parley.test/elsewhere", 303));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://parley.test/elsewhere");
    expect(response.headers.get("x-request-id")).toMatch(UUID);
  });
});

describe("a server action", () => {
  const failing = defineAction({
    roles: [],
    input: z.object({}),
    async handler() {
      log.warn("Starting.");
      throw new Error("boom");
    },
  });

  it("gives every line it writes one new request id when the request came without one", async () => {
    const captured = captureLog();
    expect(await failing({})).toMatchObject({ ok: false, error: { code: "internal" } });
    const ids = requestIdsOf(captured.lines());
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(UUID);
    expect(ids[1]).toBe(ids[0]);
    await failing({});
    expect(requestIdsOf(captured.lines())[2]).not.toBe(ids[0]);
  });

  it("takes the request's sane X-Request-Id", async () => {
    incoming.headers = new Headers({ "x-request-id": "edge-42" });
    const captured = captureLog();
    await failing({});
    expect(requestIdsOf(captured.lines())).toEqual(["edge-42", "edge-42"]);
  });
});
