import { eq } from "drizzle-orm";
import { afterEach, describe, it } from "vitest";
import { reviewTasks } from "@/examples/expense-review/schema";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { startWorker, type Worker } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "./example-fixture";

async function statusBecomes(fixture: ExampleFixture, taskId: string, status: string) {
  for (let attempt = 0; attempt < 500; attempt++) {
    const [row] = await fixture.database.db.select().from(reviewTasks).where(eq(reviewTasks.id, taskId));
    if (row?.status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the task never became ${status}`);
}

describe.each(DATABASE_KINDS)("the worker loop (%s)", (kind) => {
  let fixture: ExampleFixture;
  let worker: Worker | undefined;
  afterEach(async () => {
    await worker?.stop();
    await fixture?.database.close();
  });

  it("runs started reviews and deposited answers without anyone draining by hand", async () => {
    fixture = await createExampleFixture(kind);
    worker = startWorker(fixture.runtime, { intervalMs: 25 });
    const task = await fixture.startUnexplainedReview();
    await statusBecomes(fixture, task.id, "waiting");
    await fixture.runtime.deposit(ReviewClaim, {
      taskId: task.id,
      event: "Answered",
      payload: { text: "Dinner with the Acme procurement team to close the renewal." },
      by: fixture.sam.id,
    });
    worker.wake();
    let reimbursement;
    for (let waited = 0; !reimbursement && waited < 20_000; waited += 25) {
      [reimbursement] = await fixture.runtime.questionsFor(fixture.sam.id);
      if (!reimbursement?.title) reimbursement = undefined;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await fixture.runtime.submitAnswer({ questionId: reimbursement!.id, by: fixture.sam.id, answer: { text: { method: "1", urgent: "n", attendees: "Sam" } } });
    worker.wake();
    await statusBecomes(fixture, task.id, "completed");
  });
});
