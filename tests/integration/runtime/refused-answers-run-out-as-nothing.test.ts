import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

const BAD = { text: { method: "cheque", urgent: "n", currency: "euro", attendees: "" } };

describe.each(DATABASE_KINDS)("refused submissions to a flow's questionnaire (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("go back in the schema's words by field, with the next attempt's label, and commit nothing of the answer", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const result = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: BAD });
    expect(result).toMatchObject({
      status: "refused",
      attempt: "attempt 2 of 3",
      attemptsLeft: 2,
      fieldErrors: { currency: ["Use a three-letter currency code, like EUR."], attendees: ["Name at least one attendee."] },
    });
    expect(result.status === "refused" && result.fieldErrors.method).toHaveLength(1);
    expect(await fixture.runtime.questionFor(question!.id, fixture.filer.id)).toMatchObject({ status: "open", attemptsUsed: 1, answer: null, answeredBy: null });
    expect(await countRows(fixture.database.db, "jobs", "kind = 'event'")).toBe(0);
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("waiting");
  });

  it("end the questionnaire when the attempts run out, and the flow takes its nothing branch with reason refused", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const submit = () => fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: BAD });
    expect((await submit()).status).toBe("refused");
    expect(await submit()).toMatchObject({ status: "refused", attempt: "attempt 3 of 3" });
    expect(await submit()).toMatchObject({ status: "closed", reason: "refused", fieldErrors: { attendees: ["Name at least one attendee."] } });
    expect(await submit()).toMatchObject({ status: "conflict", reason: "refused" });
    await fixture.runtime.drain();

    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row).toMatchObject({ status: "failed", input: { nothing: "refused" } });
    expect(await fixture.runtime.questionFor(question!.id, fixture.filer.id)).toMatchObject({
      status: "nothing",
      reason: "refused",
      attemptsUsed: 3,
      answeredBy: null,
      slot: { status: "closed", finishedBy: null },
    });
    expect(await fixture.runtime.questionsFor(fixture.filer.id)).toEqual([]);
  });

  it("are counted once each, even when sent at the same moment", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const results = await Promise.all([1, 2].map(() => fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: BAD })));
    const used = (await fixture.runtime.questionFor(question!.id, fixture.filer.id))!.attemptsUsed;
    expect(used).toBe(results.filter((result) => result.status === "refused").length);
  });
});
