import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { DAY, HOUR, manualClock } from "./clock";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a flow's questionnaire whose SLA runs out (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("gives the flow nothing with reason expired, once, and stores it as no answer", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    const task = await fixture.startQuestionnaireTask();
    clock.advance(3 * DAY + HOUR);
    expect(await fixture.runtime.tick()).toEqual({ expired: 1, escalated: 0, jobs: 1 });
    expect(await fixture.runtime.tick()).toEqual({ expired: 0, escalated: 0, jobs: 0 });

    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row).toMatchObject({ status: "failed", input: { nothing: "expired" } });
    const [question] = await listQuestionsForTask(fixture.database.db, task.id);
    expect(question).toMatchObject({ status: "nothing", reason: "expired", answeredBy: null, slot: { status: "expired" } });
  });

  it("refuses a submission after the due time as closed, committing nothing", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    clock.advance(3 * DAY);
    const result = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { text: { method: "1", urgent: "n", attendees: "Ana" } } });
    expect(result).toMatchObject({ status: "conflict", reason: "expired", message: expect.stringContaining("closed unanswered") });
    expect((await fixture.runtime.questionFor(question!.id, fixture.filer.id))?.answer).toBeNull();
  });
});
