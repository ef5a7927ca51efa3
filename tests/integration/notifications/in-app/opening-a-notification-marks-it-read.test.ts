import { afterEach, describe, expect, it } from "vitest";
import { countUnreadNotifications, listNotificationsForUser } from "@/db/queries/person-notifications";
import { notifyInAppOnChanges, openNotification } from "@/lib/person-notifications";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("opening a notification (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("marks it read and leads to its question; someone else's is not theirs to open", async () => {
    fixture = await createExampleFixture(kind, { announce: notifyInAppOnChanges() });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const [notification] = await listNotificationsForUser(fixture.database.db, fixture.sam.id, 10);

    expect(await openNotification(fixture.database.db, fixture.priya.id, notification!.id)).toBeUndefined();
    expect((await countUnreadNotifications(fixture.database.db, fixture.sam.id)).count).toBe(1);

    expect(await openNotification(fixture.database.db, fixture.sam.id, notification!.id)).toBe(`/questions/${question!.id}`);
    expect((await countUnreadNotifications(fixture.database.db, fixture.sam.id)).count).toBe(0);
  });
});
