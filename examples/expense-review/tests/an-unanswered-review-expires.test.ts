import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS, DAY, manualClock } from "parley/testing";
import { reviewQuestions, reviewTasks } from "../schema";
import { createExampleFixture, type ExampleFixture } from "./fixture";

describe.each(DATABASE_KINDS)("a review nobody answers (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("fails once its filer's time runs out, with the Auditor's questions marked expired", async () => {
    const clock = manualClock();
    fixture = await createExampleFixture(kind, { now: clock.now });
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();

    clock.advance(3 * DAY);
    expect(await fixture.runtime.tick()).toEqual({ expired: 1, escalated: 0, jobs: 1 });

    const { db } = fixture.database;
    const [row] = await db.select().from(reviewTasks).where(eq(reviewTasks.id, task.id));
    expect(row?.status).toBe("failed");
    const questions = await db.select().from(reviewQuestions).where(eq(reviewQuestions.taskId, task.id));
    expect(questions.map((question) => question.status)).toEqual(["expired"]);
  });
});
