import { vi } from "vitest";

/** One line the server's logger wrote (lib/log.ts), as a test reads it. */
export interface CapturedLine {
  level: string;
  /** The whole entry as written: message, fields and any stack, in the log's format. */
  text: string;
}

/**
 * Catches what the server's logger writes to stdout from now until `vi.restoreAllMocks()`, instead of
 * printing it. The logger writes each entry in one call, as JSON (`PARLEY_LOG_FORMAT=json`) or as text
 * whose first word is the level unless it is info (the tests' default).
 */
export function captureLog(): { lines(): CapturedLine[]; text(): string } {
  const written: string[] = [];
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    written.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  });
  const levelOf = (entry: string): string => {
    if (entry.startsWith("{")) return String((JSON.parse(entry) as { level?: unknown }).level);
    return /^(FATAL|ERROR|WARN|DEBUG|TRACE) /.exec(entry)?.[1]?.toLowerCase() ?? "info";
  };
  return {
    lines: () => written.map((text) => ({ level: levelOf(text), text })),
    text: () => written.join(""),
  };
}
