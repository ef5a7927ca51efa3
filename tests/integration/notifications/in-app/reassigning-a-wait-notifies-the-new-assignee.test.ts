import { afterEach, describe, expect, it } from "vitest";
import { listNotificationsForUser } from "@/db/queries/person-notifications";
import { notifyInAppOnChanges } from "@/lib/person-notifications";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("reassigning an open wait (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("tells the new assignee it was reassigned to them, and nobody else", async () => {
    fixture = await createExampleFixture(kind, { announce: notifyInAppOnChanges() });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);

    const result = await fixture.runtime.reassignSlot({ slotId: question!.slot!.id, to: fixture.priya.id, by: fixture.omar.id });
    expect(result.status).toBe("reassigned");

    expect(await listNotificationsForUser(fixture.database.db, fixture.priya.id, 10)).toEqual([
      expect.objectContaining({ kind: "reassigned", questionId: question!.id, readAt: null }),
    ]);
    expect((await listNotificationsForUser(fixture.database.db, fixture.sam.id, 10)).map((row) => row.kind)).toEqual(["question"]);
  });
});
