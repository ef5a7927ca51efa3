import { afterEach, describe, expect, it } from "vitest";
import { countUnreadNotifications, listNotificationsForUser } from "@/db/queries/person-notifications";
import { markQuestionSeen, notifyInAppOnChanges } from "@/lib/person-notifications";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("a person's notifications about a question (%s)", (kind) => {
  let fixture: ExampleFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("are read once they open the question: theirs about that question only", async () => {
    fixture = await createExampleFixture(kind, { announce: notifyInAppOnChanges() });
    await fixture.startUnexplainedReview();
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [first, second] = await fixture.runtime.questionsFor(fixture.sam.id);
    const { db } = fixture.database;
    expect((await countUnreadNotifications(db, fixture.sam.id)).count).toBe(2);

    // Someone else opening it (were they let) reads nothing of Sam's.
    expect(await markQuestionSeen(db, fixture.priya.id, first!.id)).toBe(0);
    expect((await countUnreadNotifications(db, fixture.sam.id)).count).toBe(2);

    expect(await markQuestionSeen(db, fixture.sam.id, first!.id)).toBe(1);
    expect((await countUnreadNotifications(db, fixture.sam.id)).count).toBe(1);
    // Opened again: nothing more to read.
    expect(await markQuestionSeen(db, fixture.sam.id, first!.id)).toBe(0);
    const unread = (await listNotificationsForUser(db, fixture.sam.id, 10)).filter((row) => row.readAt === null);
    expect(unread.map((row) => row.questionId)).toEqual([second!.id]);
  });

  it("no longer count once the question is answered, though nobody opened them", async () => {
    fixture = await createExampleFixture(kind, { announce: notifyInAppOnChanges() });
    await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const { db } = fixture.database;
    expect((await countUnreadNotifications(db, fixture.sam.id)).count).toBe(1);

    const answered = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer: { form: { answer: "Client dinner with Acme." } } });
    expect(answered.status).toBe("answered");
    expect((await countUnreadNotifications(db, fixture.sam.id)).count).toBe(0);
    // Still listed (folded, as no longer open), still unread.
    const [row] = await listNotificationsForUser(db, fixture.sam.id, 10);
    expect(row).toMatchObject({ questionId: question!.id, readAt: null, questionOpen: false });
  });
});
