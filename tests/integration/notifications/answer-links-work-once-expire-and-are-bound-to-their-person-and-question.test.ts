import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { ANSWER_LINK_LIFETIME_MS, answerLinkState, createAnswerLink, followAnswerLink } from "@/lib/answer-links";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

const baseUrl = "https://parley.example.test";

describe.each(DATABASE_KINDS)("an answer link (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  async function samsQuestion() {
    fixture = await createExampleFixture(kind);
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    return question!;
  }

  it("signs in its own person for its own question, once; following it again finds it used", async () => {
    const question = await samsQuestion();
    const { db } = fixture!.database;
    const link = await createAnswerLink(db, { userId: fixture!.sam.id, questionId: question.id, dueAt: null, baseUrl });
    expect(link.url).toBe(`${baseUrl}/a/${link.token}`);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const [first, second] = await Promise.all([followAnswerLink(db, link.token), followAnswerLink(db, link.token)]);
    const outcomes = [first, second].map((each) => each.status).sort();
    expect(outcomes).toEqual(["signed-in", "used"]);
    expect([first, second].find((each) => each.status === "signed-in")).toMatchObject({ userId: fixture!.sam.id, questionId: question.id });
    expect(await followAnswerLink(db, link.token)).toEqual({ status: "used", questionId: question.id });
  });

  it("keeps only the SHA-256 of its token", async () => {
    const question = await samsQuestion();
    const { db } = fixture!.database;
    const link = await createAnswerLink(db, { userId: fixture!.sam.id, questionId: question.id, dueAt: null, baseUrl });
    const rows = await queryRows<{ token_hash: string; purpose: string }>(db, sql`select token_hash, purpose from sign_in_links`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.purpose).toBe("answer");
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]!.token_hash).not.toContain(link.token);
  });

  it("expires at the question's deadline or in a week, whichever is sooner, and then says so", async () => {
    const question = await samsQuestion();
    const { db } = fixture!.database;
    const now = new Date();
    const soon = new Date(now.getTime() + 60 * 60_000);
    const byDeadline = await createAnswerLink(db, { userId: fixture!.sam.id, questionId: question.id, dueAt: soon, baseUrl, now });
    expect(byDeadline.expiresAt).toEqual(soon);
    const byWeek = await createAnswerLink(db, { userId: fixture!.sam.id, questionId: question.id, dueAt: new Date(now.getTime() + 30 * 86_400_000), baseUrl, now });
    expect(byWeek.expiresAt).toEqual(new Date(now.getTime() + ANSWER_LINK_LIFETIME_MS));

    const later = new Date(soon.getTime() + 1);
    expect(await answerLinkState(db, byDeadline.token, later)).toEqual({ status: "expired", questionId: question.id });
    expect(await followAnswerLink(db, byDeadline.token, later)).toEqual({ status: "expired", questionId: question.id });
    // Not used by the failed follow: before its expiry it still works.
    expect(await followAnswerLink(db, byWeek.token, later)).toMatchObject({ status: "signed-in" });
  });

  it("is unknown when malformed or made up", async () => {
    await samsQuestion();
    const { db } = fixture!.database;
    expect(await followAnswerLink(db, "not-a-token")).toEqual({ status: "unknown" });
    expect(await followAnswerLink(db, "A".repeat(43))).toEqual({ status: "unknown" });
  });
});
