import { afterAll, describe, expect, it } from "vitest";
import { createLogger, routeConsoleToLog, withLogContext } from "@/lib/log";

// Next.js, next-auth and the AI SDK print with console; a JSON log takes their lines too (the server
// routes console through it at start when its log is JSON: instrumentation.ts).
const originals = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
afterAll(() => {
  Object.assign(console, originals);
  delete (console as Console & { [key: symbol]: unknown })[Symbol.for("parley.console-routed")];
});

const lines: Record<string, unknown>[] = [];
routeConsoleToLog(createLogger({ format: "json", level: "debug" }, (text) => void lines.push(JSON.parse(text) as Record<string, unknown>)));

describe("console, once routed through a JSON log", () => {
  it("writes each call as one JSON line at its level, formatted as console would", () => {
    lines.length = 0;
    console.log("Parley: running %s (parley.config.ts).", "Expense review");
    console.warn("careful");
    console.debug("details");
    expect(lines.map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: "info", msg: "Parley: running Expense review (parley.config.ts)." },
      { level: "warn", msg: "careful" },
      { level: "debug", msg: "details" },
    ]);
  });

  it("puts an error among the words under err, with its stack", () => {
    lines.length = 0;
    console.error(" ⨯ Error in a page:", new Error("boom"));
    expect(lines).toEqual([expect.objectContaining({ level: "error", msg: " ⨯ Error in a page:", err: expect.objectContaining({ message: "boom", stack: expect.stringContaining("Error: boom") }) })]);
  });

  it("scrubs secrets from what libraries print, and gives the lines the request's id", () => {
    lines.length = 0;
    withLogContext({ requestId: "req-9" }, () => console.error("fetch to https://agent:hunter2@hooks.example.test failed with Bearer pk_Yq3vN8tW0bX2cD4eF6gH8iJ0kL2mN4oP"));
    expect(lines).toEqual([expect.objectContaining({ requestId: "req-9", msg: "fetch to https://agent:***@hooks.example.test failed with Bearer ***" })]);
  });

  it("is routed once however often it is asked", () => {
    lines.length = 0;
    routeConsoleToLog(createLogger({ format: "json", level: "info" }, () => {}));
    console.info("still the first");
    expect(lines).toEqual([expect.objectContaining({ msg: "still the first" })]);
  });
});
