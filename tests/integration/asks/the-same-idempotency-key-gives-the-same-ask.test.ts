import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { httpRefusalOf } from "@/tests/support/http-refusal";

describe.each(DATABASE_KINDS)("an Idempotency-Key on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  async function askCount(): Promise<number> {
    const [row] = await queryRows<{ count: number }>(fixture!.database.db, sql`select count(*)::int as count from api_asks`);
    return row!.count;
  }

  const request = { to: "ada@parley.test", title: "Rotate the keys tonight?", due_in_seconds: 600 };

  it("used again gives the same ask, as it is now, and asks nobody twice", async () => {
    fixture = await createAskFixture(kind);
    const first = await fixture.service.create(fixture.key, request, { idempotencyKey: "rotate-2026-12-04" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "Yes, at 22:00" } } });
    fixture.advance(5_000);
    const again = await fixture.service.create(fixture.key, { ...request }, { idempotencyKey: "rotate-2026-12-04" });
    expect(again.created).toBe(false);
    expect(again.ask).toMatchObject({ id: first.ask.id, status: "answered", answer: "Yes, at 22:00" });
    expect(await askCount()).toBe(1);
  });

  it("used concurrently makes one ask", async () => {
    fixture = await createAskFixture(kind);
    const results = await Promise.all([1, 2, 3].map(() => fixture!.service.create(fixture!.key, request, { idempotencyKey: "once" })));
    expect(new Set(results.map((result) => result.ask.id)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await askCount()).toBe(1);
    expect(await fixture.runtime.questionsFor(fixture.ada.id)).toHaveLength(1);
  });

  it("used with a different request is a conflict, and changes nothing", async () => {
    fixture = await createAskFixture(kind);
    await fixture.service.create(fixture.key, request, { idempotencyKey: "rotate" });
    expect(await httpRefusalOf(fixture.service.create(fixture.key, { ...request, title: "Rotate the keys tomorrow?" }, { idempotencyKey: "rotate" }))).toMatchObject({
      code: "idempotency_conflict",
      status: 409,
    });
    expect(await askCount()).toBe(1);
  });

  it("of another key is another ask", async () => {
    fixture = await createAskFixture(kind);
    const mine = await fixture.service.create(fixture.key, request, { idempotencyKey: "shared" });
    const theirs = await fixture.service.create(fixture.otherKey, request, { idempotencyKey: "shared" });
    expect(theirs.created).toBe(true);
    expect(theirs.ask.id).not.toBe(mine.ask.id);
  });

  it("used again after the ask's deadline has passed still gives the same ask, closed as expired", async () => {
    fixture = await createAskFixture(kind);
    const request = { to: "ada@parley.test", title: "Approve before noon?", due_at: "2026-12-04T09:30:00Z" };
    const first = await fixture.service.create(fixture.key, request, { idempotencyKey: "noon" });
    fixture.advance(60 * 60_000);
    await fixture.runtime.sweepExpiredSlots();
    const again = await fixture.service.create(fixture.key, request, { idempotencyKey: "noon" });
    expect(again).toMatchObject({ created: false, ask: { id: first.ask.id, status: "nothing", reason: "expired" } });
  });
});
