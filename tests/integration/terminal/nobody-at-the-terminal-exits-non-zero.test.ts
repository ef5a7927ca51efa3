import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runWithPipes, TAXI_CLAIM } from "./terminal-run";

/*
 * A flow driven from this command line (`parley start`, on a database of its own) with nobody at the
 * terminal: its question gets nothing at once, reason non-interactive — the flow's answer.
 */
const files: string[] = [];
afterAll(() => {
  for (const file of files) rmSync(file, { force: true });
});

function jsonFile(value: unknown): string {
  const file = path.join(tmpdir(), `parley-answers-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(value));
  files.push(file);
  return file;
}

/** `parley start ReviewClaim`, its start form from a file: the Auditor approves and the Reimbursement questionnaire is next. */
const reimburse = (...args: string[]) => ["start", "ReviewClaim", "--input", jsonFile(TAXI_CLAIM), ...args];

describe("parley with nobody at the terminal", () => {
  it("asks nothing when stdin is a pipe, says so on stderr, and exits non-zero with reason non-interactive", async () => {
    const result = await runWithPipes(reimburse(), { input: "2\ny\n-\nAna\n" });
    expect(result.code).toBe(3);
    expect(result.stdout).not.toContain("Question 1 of 4");
    expect(result.stderr).toContain("Nobody is at this terminal (stdin is not a terminal)");
    expect(result.stderr).toContain("reason: non-interactive");
  }, 60_000);

  it("asks nothing when CI is set", async () => {
    const result = await runWithPipes(reimburse(), { env: { CI: "true" } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("(CI is set)");
  }, 60_000);

  it("asks nothing with --no-input", async () => {
    const result = await runWithPipes(reimburse("--no-input"));
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("(--no-input was given)");
  }, 60_000);
});

describe("parley with --answers FILE.json", () => {
  it("answers on purpose and prints the typed value", async () => {
    const result = await runWithPipes(reimburse("--answers", jsonFile({ method: "card refund", urgent: "no", currency: "-", attendees: ["Ana"] })));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ method: "card_refund", urgent: false, currency: "EUR", attendees: ["Ana"] });
  }, 60_000);

  it("reports refusals in the schema's words and exits non-zero", async () => {
    const result = await runWithPipes(reimburse("--answers", jsonFile({ method: "payroll", urgent: true, currency: "euro", attendees: [] })));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("currency: Use a three-letter currency code, like USD or EUR.");
    expect(result.stderr).toContain("attendees: Name at least one attendee.");
    expect(result.stdout).toBe("");
  }, 60_000);
});
