import { afterEach, describe, expect, it } from "vitest";
import { loadInbox, lookAtInbox } from "@/lib/inbox";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("the inbox (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("shows as new what was put to the person since they last looked, and only until they look again", async () => {
    fixture = await createExampleFixture(kind);
    const { db } = fixture.database;
    const registry = { describeTasks: async () => new Map() };
    const look = async () => {
      const now = new Date();
      const seenBefore = await lookAtInbox(db, fixture!.sam.id, now);
      return (await loadInbox(db, fixture!.sam.id, "assigned", now, { seenBefore, registry })).rows;
    };
    expect(await look()).toEqual([]);

    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    expect(await look()).toEqual([expect.objectContaining({ isNew: true })]);
    expect(await look()).toEqual([expect.objectContaining({ isNew: false })]);
  });
});
