import { afterEach, describe, expect, it } from "vitest";
import { countUnreadNotifications, listNotificationsForUser } from "@/db/queries/person-notifications";
import { notifyInAppOnChanges } from "@/lib/person-notifications";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("a question put to a person (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("gives them one unread notification naming it, with no notifier configured", async () => {
    fixture = await createExampleFixture(kind, { announce: notifyInAppOnChanges() });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);

    const notifications = await listNotificationsForUser(fixture.database.db, fixture.sam.id, 10);
    expect(notifications).toEqual([expect.objectContaining({ kind: "question", questionId: question!.id, readAt: null })]);
    expect((await countUnreadNotifications(fixture.database.db, fixture.sam.id)).count).toBe(1);
    expect((await countUnreadNotifications(fixture.database.db, fixture.priya.id)).count).toBe(0);
  });

  it("is written in the transaction that asks it: when that rolls back, there is no notification", async () => {
    const notify = notifyInAppOnChanges();
    fixture = await createExampleFixture(kind, {
      announce: async (tx, changes) => {
        await notify(tx, changes);
        if (changes.some((change) => change.kind === "question-asked")) throw new Error("the ask could not be committed");
      },
    });
    await fixture.startUnexplainedReview().catch(() => {});
    await fixture.runtime.drain().catch(() => {});

    expect(await fixture.runtime.questionsFor(fixture.sam.id)).toEqual([]);
    expect(await listNotificationsForUser(fixture.database.db, fixture.sam.id, 10)).toEqual([]);
  });
});
