import { afterEach, describe, expect, it } from "vitest";
import { groupMembers, groups } from "@/db/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

const MINUTE = 60_000;

describe.each(DATABASE_KINDS)("an ask's escalation chain on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("is kept with the ask and fires at its moments: a reminder at half time, then the group may answer", async () => {
    fixture = await createAskFixture(kind);
    const [finance] = await fixture.database.db.insert(groups).values({ name: "finance" }).returning();
    await fixture.database.db.insert(groupMembers).values({ groupId: finance!.id, userId: fixture.bo.id });
    const { ask } = await fixture.service.create(fixture.key, {
      to: "ada@parley.test",
      title: "Approve the invoice?",
      due_in_seconds: 3600,
      escalation: [
        { after_percent: 80, action: "add_group", group: "Finance" },
        { after_percent: 50, action: "remind" },
      ],
    });
    expect(await fixture.runtime.questionsFor(fixture.bo.id)).toEqual([]);

    fixture.advance(30 * MINUTE);
    await fixture.runtime.tick();
    fixture.advance(18 * MINUTE);
    await fixture.runtime.tick();
    await fixture.runtime.tick();

    const escalated = (await fixture.runtime.events(ask.id)).filter((event) => event.kind === "escalated").map((event) => event.data);
    expect(escalated).toMatchObject([
      { step: 1, action: { kind: "remind" }, percent: 50 },
      { step: 2, action: { kind: "add-group", group: "finance" }, percent: 80 },
    ]);
    const [question] = await fixture.runtime.questionsFor(fixture.bo.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.bo.id, answer: { text: { answer: "Approved." } } });
    await fixture.runtime.drain();
    expect(await fixture.service.get(fixture.key, ask.id)).toMatchObject({ status: "answered", answered_by: { email: "bo@parley.test" } });
  });

  it("is part of the request: the same Idempotency-Key with another chain is a conflict", async () => {
    fixture = await createAskFixture(kind);
    const body = { to: "ada@parley.test", title: "Approve the invoice?", due_in_seconds: 3600, escalation: [{ after_percent: 50, action: "remind" }] };
    await fixture.service.create(fixture.key, body, { idempotencyKey: "invoice-7" });

    const again = fixture.service.create(fixture.key, { ...body, escalation: [{ after_percent: 60, action: "remind" }] }, { idempotencyKey: "invoice-7" });
    await expect(again).rejects.toMatchObject({ code: "idempotency_conflict" });
  });
});
