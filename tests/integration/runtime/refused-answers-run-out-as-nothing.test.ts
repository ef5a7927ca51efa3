import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { reviewTasks } from "@/examples/expense-review/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { createExampleFixture, type ExampleFixture } from "./example-fixture";

const BAD = { text: { method: "cheque", urgent: "n", currency: "euro", attendees: "" } };

describe.each(DATABASE_KINDS)("refused submissions to a flow's questionnaire (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("go back in the schema's words by field, with the next attempt's label, and commit nothing of the answer", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const result = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer: BAD });
    expect(result).toMatchObject({
      status: "refused",
      attempt: "attempt 2 of 3",
      attemptsLeft: 2,
      fieldErrors: { currency: ["Use a three-letter currency code, like EUR."], attendees: ["Name at least one attendee."] },
    });
    expect(result.status === "refused" && result.fieldErrors.method).toHaveLength(1);
    expect(await fixture.runtime.questionFor(question!.id, fixture.sam.id)).toMatchObject({ status: "open", attemptsUsed: 1, answer: null, answeredBy: null });
    expect(await countRows(fixture.database.db, "jobs", "kind = 'event'")).toBe(0);
    const [row] = await fixture.database.db.select().from(reviewTasks).where(eq(reviewTasks.id, task.id));
    expect(row?.status).toBe("waiting");
  });

  it("end the questionnaire when the attempts run out, and the flow takes its nothing branch with reason refused", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const submit = () => fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer: BAD });
    expect((await submit()).status).toBe("refused");
    expect(await submit()).toMatchObject({ status: "refused", attempt: "attempt 3 of 3" });
    expect(await submit()).toMatchObject({ status: "closed", reason: "refused", fieldErrors: { attendees: ["Name at least one attendee."] } });
    expect(await submit()).toMatchObject({ status: "conflict", reason: "refused" });
    await fixture.runtime.drain();

    const [row] = await fixture.database.db.select().from(reviewTasks).where(eq(reviewTasks.id, task.id));
    expect(row).toMatchObject({ status: "failed", reimbursement: null, reimbursementNothing: "refused" });
    expect(await fixture.runtime.questionFor(question!.id, fixture.sam.id)).toMatchObject({
      status: "nothing",
      reason: "refused",
      attemptsUsed: 3,
      answeredBy: null,
      slot: { status: "closed", finishedBy: null },
    });
    expect(await fixture.runtime.questionsFor(fixture.sam.id)).toEqual([]);
  });

  it("are counted once each, even when sent at the same moment", async () => {
    fixture = await createExampleFixture(kind);
    await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const results = await Promise.all([1, 2].map(() => fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer: BAD })));
    const used = (await fixture.runtime.questionFor(question!.id, fixture.sam.id))!.attemptsUsed;
    expect(used).toBe(results.filter((result) => result.status === "refused").length);
  });
});
