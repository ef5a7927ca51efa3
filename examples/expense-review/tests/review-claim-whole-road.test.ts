import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "parley/testing";
import { ReviewClaim } from "../review-claim";
import { listQuestions } from "../review-questions";
import { reviewTasks } from "../schema";
import { createExampleFixture, type ExampleFixture } from "./fixture";

describe.each(DATABASE_KINDS)("the whole road of a claim review (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("parks with a question, parks again on a thin answer, approves, and completes with the filer's reimbursement answer", async () => {
    fixture = await createExampleFixture(kind);
    const { runtime, database, sam, priya } = fixture;
    const task = await fixture.startUnexplainedReview();
    await runtime.drain();

    const statusOf = async () => (await database.db.select().from(reviewTasks).where(eq(reviewTasks.id, task.id)))[0]!;
    expect((await statusOf()).status).toBe("waiting");
    const [first] = await listQuestions(database.db, task.id);
    expect(first?.text).toMatch(/What was the 482\.50 EUR charge at Cervejaria Ramiro/);

    await runtime.deposit(ReviewClaim, { taskId: task.id, event: "Answered", payload: { text: "A dinner." }, by: sam.id });
    await runtime.drain();
    expect((await statusOf()).status).toBe("waiting");
    const questions = await listQuestions(database.db, task.id);
    expect(questions).toHaveLength(2);
    expect(questions[0]).toMatchObject({ status: "answered", answer: "A dinner." });
    expect(questions[1]?.options).toEqual(["A client meeting", "Team travel", "Personal — I'll repay it"]);

    await runtime.deposit(ReviewClaim, {
      taskId: task.id,
      event: "Answered",
      payload: { text: "Dinner with the Acme procurement team to close the renewal contract." },
      by: priya.id,
    });
    await runtime.drain();

    expect(await statusOf()).toMatchObject({ status: "waiting", decision: "approved" });
    const [reimbursement] = await runtime.questionsFor(sam.id);
    expect(reimbursement?.title).toBe("Reimbursement");
    const answered = await runtime.submitAnswer({ questionId: reimbursement!.id, by: sam.id, answer: { text: { method: "bank transfer", urgent: "no", attendees: "Sam, Acme team" } } });
    expect(answered.status).toBe("answered");
    await runtime.drain();

    const finished = await statusOf();
    expect(finished).toMatchObject({ status: "completed", decision: "approved", reimbursement: { method: "bank_transfer", urgent: false, currency: "EUR", attendees: ["Sam", "Acme team"] } });
    expect(finished.decisionReason).toMatch(/Acme procurement team/);

    const events = await runtime.events(task.id);
    expect(events.map((event) => event.kind)).toEqual([
      "run-started",
      "state-entered", // Running
      "turn-started",
      "turn-finished",
      "tool-called",
      "question-asked",
      "parked",
      "state-entered", // Waiting
      "slot-opened",
      "answered",
      "resumed",
      "turn-started",
      "turn-finished",
      "tool-called",
      "question-asked",
      "parked",
      "state-entered", // Waiting again
      "slot-opened",
      "answered",
      "resumed",
      "turn-started",
      "turn-finished",
      "state-entered", // Reimbursing
      "question-asked",
      "slot-opened",
      "parked",
      "answered",
      "state-entered", // Completed
      "completed",
    ]);
    const answers = events.filter((event) => event.kind === "answered");
    expect(answers.map((event) => event.data.by)).toEqual([sam.id, priya.id, sam.id]);
    expect(events.filter((event) => event.kind === "turn-started").every((event) => event.agent === "Auditor")).toBe(true);
  });
});
