import { afterEach, describe, expect, it } from "vitest";
import { countRunsByState, findRun, listRuns } from "@/db/queries/runs";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

describe.each(DATABASE_KINDS)("an ask nobody answers on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("to someone away is nothing at once, reason away, and never reaches their inbox", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Approve the invoice?" });
    expect(ask).toMatchObject({ status: "nothing", reason: "away", answer: null });
    expect(await fixture.runtime.questionsFor(fixture.cy.id)).toEqual([]);
  });

  it("to several people skips those away and asks the rest", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: ["cy@parley.test", "bo@parley.test"], title: "Approve the invoice?" });
    expect(ask.status).toBe("open");
    expect(await fixture.runtime.questionsFor(fixture.cy.id)).toEqual([]);
    expect(await fixture.runtime.questionsFor(fixture.bo.id)).toHaveLength(1);
  });

  it("is a run that ended without an answer, with the reason, where the runs list counts and filters those", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Approve the invoice?", due_in_seconds: 60 });
    fixture.advance(61_000);
    await fixture.runtime.sweepExpiredSlots();
    await fixture.runtime.drain();
    const { db } = fixture.database;
    expect(await findRun(db, ask.id)).toMatchObject({ state: "Unanswered", runState: "nothing", nothingReason: "expired" });
    expect((await countRunsByState(db)).nothing).toEqual({ count: 1, atLeast: false });
    expect((await listRuns(db, { state: "nothing" })).map((run) => run.taskId)).toEqual([ask.id]);
    expect(await listRuns(db, { state: "completed" })).toEqual([]);
  });

  it("past its deadline is nothing, reason expired, once the sweep runs", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Approve the invoice?", due_in_seconds: 60 });
    fixture.advance(61_000);
    expect(await fixture.runtime.sweepExpiredSlots()).toBe(1);
    expect(await fixture.runtime.sweepExpiredSlots()).toBe(0);
    expect(await fixture.service.get(fixture.key, ask.id)).toMatchObject({ status: "nothing", reason: "expired", waited_seconds: 61 });
    expect(await fixture.runtime.questionsFor(fixture.ada.id)).toEqual([]);
  });
});
