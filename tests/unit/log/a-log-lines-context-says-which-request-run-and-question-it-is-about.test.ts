import { describe, expect, it } from "vitest";
import { addLogContext, createLogger, requestIdFrom, withLogContext } from "@/lib/log";

function jsonLogger() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ format: "json", level: "info" }, (text) => void lines.push(JSON.parse(text) as Record<string, unknown>));
  return { log, lines };
}

describe("a log line's context", () => {
  it("gives every line written inside it its fields, across awaits, and none outside", async () => {
    const { log, lines } = jsonLogger();
    await withLogContext({ requestId: "req-1" }, async () => {
      log.info("first");
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.info("after a wait");
    });
    log.info("outside");
    expect(lines.map(({ msg, requestId }) => ({ msg, requestId }))).toEqual([
      { msg: "first", requestId: "req-1" },
      { msg: "after a wait", requestId: "req-1" },
      { msg: "outside", requestId: undefined },
    ]);
  });

  it("adds what a request learns on the way (its run, its question) to the lines after", async () => {
    const { log, lines } = jsonLogger();
    await withLogContext({ requestId: "req-1" }, async () => {
      log.info("before");
      addLogContext({ taskId: "task-1", questionId: "question-1" });
      await Promise.resolve();
      log.info("after");
    });
    expect(lines[0]).not.toHaveProperty("questionId");
    expect(lines[1]).toMatchObject({ requestId: "req-1", taskId: "task-1", questionId: "question-1" });
  });

  it("keeps two requests at once apart", async () => {
    const { log, lines } = jsonLogger();
    const request = (id: string, delay: number) =>
      withLogContext({ requestId: id }, async () => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        log.info(id);
      });
    await Promise.all([request("slow", 20), request("quick", 1)]);
    expect(lines.map(({ msg, requestId }) => [msg, requestId])).toEqual([
      ["quick", "quick"],
      ["slow", "slow"],
    ]);
  });

  it("nests: an inner context adds to the outer one's fields, and a line's own fields win", () => {
    const { log, lines } = jsonLogger();
    withLogContext({ requestId: "req-1" }, () => withLogContext({ runId: "run-1", taskId: "task-1" }, () => log.info({ taskId: "task-2" }, "inner")));
    expect(lines[0]).toMatchObject({ requestId: "req-1", runId: "run-1", taskId: "task-2" });
  });
});

describe("a request's id", () => {
  it("is the X-Request-Id the request came with when that is a sane id", () => {
    for (const given of ["0190a4b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b", "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=1", "a".repeat(128)]) {
      expect(requestIdFrom(new Headers({ "x-request-id": given }))).toBe(given);
    }
  });

  it("is a new one when none came, or what came is too long, empty or holds spaces, quotes or control characters", () => {
    for (const given of [undefined, "", "a".repeat(129), "two words", 'quote"d', "line\tbreak", "ünïcode"]) {
      const id = requestIdFrom(new Headers(given === undefined ? {} : { "x-request-id": given }));
      expect(id).not.toBe(given);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});
