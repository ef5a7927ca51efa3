import { describe, expect, it } from "vitest";
import { checkLogSettings, createLogger, type LogSettings, logSettings } from "@/lib/log";

function written(settings: LogSettings, act: (log: ReturnType<typeof createLogger>) => void): string[] {
  const lines: string[] = [];
  act(createLogger(settings, (text) => void lines.push(text)));
  return lines;
}

describe("the log", () => {
  it("writes JSON lines of the level's name, an ISO time, the process, the message and the line's fields", () => {
    const [line] = written({ format: "json", level: "info" }, (log) => log.info({ questionId: "q-1" }, "Answered."));
    expect(line!.endsWith("\n")).toBe(true);
    expect(line!.trim()).not.toContain("\n");
    const parsed = JSON.parse(line!) as Record<string, unknown>;
    expect(parsed).toEqual({ level: "info", time: expect.any(String), pid: process.pid, hostname: expect.any(String), questionId: "q-1", msg: "Answered." });
    expect(new Date(parsed.time as string).toISOString()).toBe(parsed.time);
  });

  it("writes an error under err with pino's serializer: its type, message and stack", () => {
    class TimeoutError extends Error {}
    const [line] = written({ format: "json", level: "info" }, (log) => log.error({ err: Object.assign(new TimeoutError("too slow"), { code: "ETIMEDOUT" }) }, "The call failed."));
    expect(JSON.parse(line!)).toMatchObject({ level: "error", msg: "The call failed.", err: { type: "TimeoutError", message: "too slow", code: "ETIMEDOUT", stack: expect.stringMatching(/^Error: too slow\n\s+at /) } });
  });

  it("leaves out the prompt an AI SDK error carries (requestBodyValues)", () => {
    const failure = Object.assign(new Error("Bad Gateway"), { statusCode: 502, requestBodyValues: { messages: [{ role: "user", content: "the whole conversation" }] } });
    const [line] = written({ format: "json", level: "info" }, (log) => log.error({ err: failure }, "The model failed."));
    expect(JSON.parse(line!)).toMatchObject({ err: { message: "Bad Gateway", statusCode: 502 } });
    expect(line).not.toContain("the whole conversation");
  });

  it("writes text as people read it: the message and its fields, the level when it is not info, an error's stack below", () => {
    const lines = written({ format: "text", level: "info" }, (log) => {
      log.info("Parley: agents run on the scripted model.");
      log.warn({ questionId: "q-1", reason: "mailbox unknown" }, "Delivery failed.");
      log.error({ err: new Error("boom") }, "Parley worker: a tick failed.");
    });
    expect(lines[0]).toBe("Parley: agents run on the scripted model.\n");
    expect(lines[1]).toBe('WARN Delivery failed.  questionId=q-1 reason="mailbox unknown"\n');
    expect(lines[2]).toMatch(/^ERROR Parley worker: a tick failed\.\nError: boom\n\s+at /);
  });

  it("keeps a message of several lines (the demo's table of sign-ins) as it is in text", () => {
    const table = "Sign in as:\n  ada@parley.test   ada-demo\n  omar@parley.test  omar-operator-demo";
    expect(written({ format: "text", level: "info" }, (log) => log.info(table))).toEqual([`${table}\n`]);
  });

  it("leaves out the lines below its level", () => {
    const lines = written({ format: "json", level: "warn" }, (log) => {
      log.debug("no");
      log.info("no");
      log.warn("yes");
      log.error("yes");
    });
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(["yes", "yes"]);
  });
});

describe("the log's settings", () => {
  it("are JSON at info for a production server on PostgreSQL", () => {
    expect(logSettings({ NODE_ENV: "production", DATABASE_URL: "postgres://db/parley" })).toEqual({ format: "json", level: "info" });
  });

  it("are text for the demo on the embedded database and for next dev, so the demo's sign-ins read as a table", () => {
    expect(logSettings({ NODE_ENV: "production" })).toEqual({ format: "text", level: "info" });
    expect(logSettings({ NODE_ENV: "development", DATABASE_URL: "postgres://db/parley" })).toEqual({ format: "text", level: "info" });
  });

  it("are what PARLEY_LOG_FORMAT and PARLEY_LOG_LEVEL say, in any case", () => {
    expect(logSettings({ NODE_ENV: "production", PARLEY_LOG_FORMAT: "JSON", PARLEY_LOG_LEVEL: "Debug" })).toEqual({ format: "json", level: "debug" });
    expect(logSettings({ NODE_ENV: "production", DATABASE_URL: "postgres://db/parley", PARLEY_LOG_FORMAT: "text" })).toEqual({ format: "text", level: "info" });
  });

  it("refuse a malformed value naming the variable and what it takes", () => {
    expect(() => checkLogSettings({ PARLEY_LOG_FORMAT: "pretty" })).toThrow(/PARLEY_LOG_FORMAT must be json or text \(it is "pretty"\)/);
    expect(() => checkLogSettings({ PARLEY_LOG_LEVEL: "verbose" })).toThrow(/PARLEY_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(it is "verbose"\)/);
    expect(() => checkLogSettings({ PARLEY_LOG_FORMAT: "json", PARLEY_LOG_LEVEL: "warn" })).not.toThrow();
  });
});
