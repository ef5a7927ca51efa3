import { afterEach, describe, expect, it } from "vitest";
import { listNoticesForQuestion } from "@/db/queries/notification-outbox";
import { listNotificationsForUser } from "@/db/queries/person-notifications";
import { remindAboutQuestion } from "@/lib/notifications/outbox";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("reminding about an open question (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("reaches the person it waits on in the app when no notifier is configured", async () => {
    fixture = await createExampleFixture(kind);
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);

    const result = await remindAboutQuestion(fixture.database.db, question!.id, { baseUrl: "https://parley.example.test", notifiers: [], at: new Date(), remindedBy: "Ada Admin" });

    expect(result).toEqual({ status: "reminded", people: ["Sam Rivera"], deliveries: 0 });
    expect(await listNotificationsForUser(fixture.database.db, fixture.sam.id, 10)).toEqual([
      expect.objectContaining({ kind: "reminder", questionId: question!.id, readAt: null, data: expect.objectContaining({ remindedBy: "Ada Admin" }) }),
    ]);
    expect(await listNoticesForQuestion(fixture.database.db, question!.id)).toEqual([]);
  });
});
