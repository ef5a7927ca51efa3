import { afterEach, describe, expect, it } from "vitest";
import { countRunsByState, listRuns, type RunState } from "@/db/queries/runs";
import { auditorScript } from "@/examples/expense-review/auditor-script";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("the runs list by state (expense reviews) (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("counts and filters running, waiting, completed, failed, nothing-with-reason and cancelled", async () => {
    // The model's first call fails, so the first review is left retryable (a failure); the rest run as scripted.
    let calls = 0;
    const model = createScriptedModel({ respond: (prompt) => (++calls === 1 ? { error: "upstream overloaded", status: 529 } : auditorScript(prompt)) });
    fixture = await createExampleFixture(kind, { resolveModel: () => model });
    const { runtime, database, sam } = fixture;

    const failed = await fixture.startUnexplainedReview();
    await runtime.drain();
    const waiting = await fixture.startUnexplainedReview();
    await runtime.drain();

    const nothing = await fixture.startApprovedReview();
    const questionOf = async (taskId: string) => (await runtime.questionsFor(sam.id)).find((question) => question.taskId === taskId)!;
    const away = await questionOf(nothing.id);
    expect((await runtime.closeWithNothing({ questionId: away.id, reason: "away" })).status).toBe("closed");
    await runtime.drain();

    const completed = await fixture.startApprovedReview();
    const reimbursement = await questionOf(completed.id);
    const answered = await runtime.submitAnswer({ questionId: reimbursement.id, by: sam.id, answer: { text: { method: "bank transfer", urgent: "no", attendees: "Sam" } } });
    expect(answered.status).toBe("answered");
    await runtime.drain();

    // Cancelled while it waited: its withdrawn question's reason does not make it "nothing".
    const cancelled = await fixture.startUnexplainedReview();
    await runtime.drain();
    await runtime.cancelRun(ReviewClaim, cancelled.id, { by: sam.id });

    const running = await fixture.startUnexplainedReview(); // not drained: its first job is still queued

    const one = { count: 1, atLeast: false };
    expect(await countRunsByState(database.db)).toEqual({ running: one, waiting: one, completed: one, failed: one, nothing: one, cancelled: one });
    const ids = async (state: RunState) => (await listRuns(database.db, { state })).map((row) => row.taskId);
    expect(await ids("running")).toEqual([running.id]);
    expect(await ids("waiting")).toEqual([waiting.id]);
    expect(await ids("completed")).toEqual([completed.id]);
    expect(await ids("failed")).toEqual([failed.id]);
    expect(await ids("nothing")).toEqual([nothing.id]);
    expect(await ids("cancelled")).toEqual([cancelled.id]);
    const [nothingRow] = await listRuns(database.db, { state: "nothing" });
    expect(nothingRow).toMatchObject({ status: "failed", nothingReason: "away" });
    expect(await listRuns(database.db)).toHaveLength(6);
  });
});
