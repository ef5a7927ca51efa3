import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PtySession, TAXI_CLAIM } from "./terminal-run";

/** The expense review's start form in a file: `parley start ReviewClaim --input` then asks its Reimbursement questionnaire here. */
const claim = path.join(tmpdir(), `parley-claim-${process.pid}.json`);
writeFileSync(claim, JSON.stringify(TAXI_CLAIM));
afterAll(() => rmSync(claim, { force: true }));

describe("the Reimbursement questionnaire at a terminal", () => {
  it("asks question N of M with numbered options, (y/n), [EUR] or a dash, a comma list, and prints the typed value", async () => {
    const session = new PtySession(["start", "ReviewClaim", "--input", claim]);
    await session.waitFor("Question 1 of 4: How should we pay you back?");
    expect(session.screen).toContain("1. Bank transfer — To the account on file");
    expect(session.screen).toContain("2. Payroll — With your next salary");
    session.type("2");
    await session.waitFor("Question 2 of 4: Is it urgent?");
    expect(session.screen).toContain("(y/n)");
    session.type("y");
    await session.waitFor("Question 3 of 4: Which currency should we pay in?");
    expect(session.screen).toContain("[EUR] or a dash for that");
    session.type("-");
    await session.waitFor("Question 4 of 4: Who attended?");
    expect(session.screen).toContain("separate them with commas");
    session.type("Ana, Ben");
    expect(await session.exited()).toBe(0);
    const printed = session.screen.slice(session.screen.lastIndexOf("{"));
    expect(printed.replace(/\s+/g, " ")).toContain('"method": "payroll", "urgent": true, "currency": "EUR", "attendees": [ "Ana", "Ben" ]');
  }, 60_000);

  it("shows a refusal in the schema's words with the attempt label, and asks only the refused question again", async () => {
    const session = new PtySession(["start", "ReviewClaim", "--input", claim]);
    await session.waitFor("Question 1 of 4");
    session.type("1");
    await session.waitFor("Question 2 of 4");
    session.type("n");
    await session.waitFor("Question 3 of 4");
    session.type("euro");
    await session.waitFor("Question 4 of 4");
    session.type("Ana");
    await session.waitFor("attempt 2 of 3");
    expect(session.screen).toContain("Use a three-letter currency code, like USD or EUR.");
    const afterRefusal = () => session.screen.slice(session.screen.indexOf("attempt 2 of 3"));
    await session.waitFor("Question 3 of 4", "attempt 2 of 3");
    expect(afterRefusal()).toContain("Question 3 of 4");
    expect(afterRefusal()).not.toContain("Question 1 of 4");
    session.type("GBP");
    expect(await session.exited()).toBe(0);
    expect(session.screen).toContain('"currency": "GBP"');
  }, 60_000);
});
