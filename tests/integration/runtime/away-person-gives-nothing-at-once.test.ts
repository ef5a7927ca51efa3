import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { setUserAway } from "@/db/queries/users";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { reviewTasks } from "@/examples/expense-review/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "./example-fixture";

describe.each(DATABASE_KINDS)("a flow asking a person who is away (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("gets nothing at once with reason away; the question is closed as such and nobody is left a question", async () => {
    fixture = await createExampleFixture(kind);
    await setUserAway(fixture.database.db, fixture.sam.id, true);
    const task = await fixture.startApprovedReview();

    const [row] = await fixture.database.db.select().from(reviewTasks).where(eq(reviewTasks.id, task.id));
    expect(row).toMatchObject({ status: "failed", reimbursementNothing: "away", reimbursement: null });
    const [question] = await listQuestionsForTask(fixture.database.db, task.id);
    expect(question).toMatchObject({ status: "nothing", reason: "away", answeredBy: null, slot: { status: "closed", finishedBy: null } });
    expect(await fixture.runtime.questionsFor(fixture.sam.id)).toEqual([]);
    const nothing = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "nothing");
    expect(nothing.map((event) => event.data)).toEqual([{ questionId: question!.id, reason: "away", by: null }]);
  });
});
