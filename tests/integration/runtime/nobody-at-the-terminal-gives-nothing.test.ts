import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { reviewTasks } from "@/examples/expense-review/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "./example-fixture";

describe.each(DATABASE_KINDS)("a question closed because nobody is at the terminal (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("gives the flow nothing with reason non-interactive, never recorded as the person's answer", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    expect(await fixture.runtime.closeWithNothing({ questionId: question!.id, reason: "non-interactive", by: fixture.sam.id })).toEqual({
      status: "closed",
      questionId: question!.id,
      reason: "non-interactive",
    });
    await fixture.runtime.drain();
    const [row] = await fixture.database.db.select().from(reviewTasks).where(eq(reviewTasks.id, task.id));
    expect(row).toMatchObject({ status: "failed", reimbursementNothing: "non-interactive", reimbursement: null });
    expect(await fixture.runtime.questionFor(question!.id, fixture.sam.id)).toMatchObject({ status: "nothing", reason: "non-interactive", answeredBy: null, answer: null });
    const kinds = (await fixture.runtime.events(task.id)).map((event) => event.kind);
    expect(kinds).not.toContain("answered");
  });

  it("cannot be closed by someone the question is not for", async () => {
    fixture = await createExampleFixture(kind);
    await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    expect((await fixture.runtime.closeWithNothing({ questionId: question!.id, reason: "non-interactive", by: fixture.priya.id })).status).toBe("forbidden");
    expect((await fixture.runtime.questionFor(question!.id, fixture.sam.id))?.status).toBe("open");
  });
});
