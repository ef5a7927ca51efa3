import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "parley/workflows";
import { DATABASE_KINDS } from "parley/testing";
import { reviewTasks } from "../schema";
import { startReviewOfClaim } from "../start-review-of-claim";
import { createExampleFixture, type ExampleFixture } from "./fixture";

describe.each(DATABASE_KINDS)("starting another review of a claim (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("is refused with a conflict while its review is open", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const refusal = await startReviewOfClaim(fixture.database.db, fixture.runtime, { reviewTaskId: task.id, createdBy: fixture.omar.id }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: "conflict", message: expect.stringMatching(/already has a review open: it is waiting for an answer/) });
    expect(await fixture.database.db.$count(reviewTasks)).toBe(1);
  });

  it("starts once the last review has ended, put to the same person", async () => {
    fixture = await createExampleFixture(kind);
    const first = await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    await fixture.runtime.closeWithNothing({ questionId: question!.id, reason: "away" });
    await fixture.runtime.drain();
    const { task } = await startReviewOfClaim(fixture.database.db, fixture.runtime, { reviewTaskId: first.id, createdBy: fixture.omar.id });
    expect(task).toMatchObject({ claimId: first.claimId, assigneeId: fixture.sam.id, createdBy: fixture.omar.id });
    expect(task.id).not.toBe(first.id);
  });

  it("started twice at once, starts exactly one", async () => {
    fixture = await createExampleFixture(kind);
    const first = await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    await fixture.runtime.closeWithNothing({ questionId: question!.id, reason: "away" });
    await fixture.runtime.drain();
    const start = () => startReviewOfClaim(fixture.database.db, fixture.runtime, { reviewTaskId: first.id, createdBy: fixture.omar.id });
    const outcomes = await Promise.allSettled([start(), start()]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => (outcome as PromiseRejectedResult).reason.code)).toEqual(["conflict"]);
    expect(await fixture.database.db.$count(reviewTasks)).toBe(2);
  });

  it("is not found for an unknown review", async () => {
    fixture = await createExampleFixture(kind);
    const refusal = await startReviewOfClaim(fixture.database.db, fixture.runtime, { reviewTaskId: "00000000-0000-4000-8000-000000000000", createdBy: fixture.omar.id }).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ code: "not_found" });
  });
});
