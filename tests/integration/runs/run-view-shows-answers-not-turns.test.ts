import { afterEach, describe, expect, it } from "vitest";
import { listAnswersForTask, namesOf } from "@/db/queries/runs";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { handoffGraph, runEntries } from "@/lib/run-view";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { HOUR, manualClock } from "@/tests/integration/runtime/clock";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("the run page's view of a run (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  /** A review the Auditor asks about, answered by Sam after three hours, then approved and asked the reimbursement questionnaire. */
  async function answeredRun() {
    const clock = manualClock();
    fixture = await createExampleFixture(kind, { now: clock.now });
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    clock.advance(3 * HOUR);
    const answer = "Dinner with the Acme procurement team to close the renewal.";
    await fixture.runtime.deposit(ReviewClaim, { taskId: task.id, event: "Answered", payload: { text: answer }, by: fixture.sam.id });
    await fixture.runtime.drain();
    const events = await fixture.runtime.events(task.id);
    const db = fixture.database.db;
    const names = await namesOf(db, [fixture.sam.id]);
    return { events, answer, entries: runEntries(events, { names, answers: await listAnswersForTask(db, task.id) }) };
  }

  it("shows the person's answer as an answer with who and how long, never as a turn", async () => {
    const { entries } = await answeredRun();
    const answers = entries.filter((entry) => entry.kind === "answer");
    expect(answers).toMatchObject([{ by: "Sam Rivera", waitMs: 3 * HOUR }]);
    const turns = entries.filter((entry) => entry.kind === "turn");
    expect(turns.map((turn) => turn.kind === "turn" && turn.agent)).toEqual(["Auditor", "Auditor"]);
    for (const turn of turns) if (turn.kind === "turn") expect(turn.durationMs).toBeLessThan(HOUR);
    const kinds = entries.map((entry) => entry.kind);
    expect(kinds.slice(kinds.indexOf("parked"), kinds.indexOf("resumed") + 1)).toEqual(["parked", "state", "slot-opened", "answer", "resumed"]);
  });

  it("lists each question with its options, the agent's turn with its tool call, and the flow's questionnaire to the filer", async () => {
    const { entries } = await answeredRun();
    const [firstTurn] = entries.filter((entry) => entry.kind === "turn");
    expect(firstTurn).toMatchObject({ status: "finished", tools: ["ask"] });
    const questions = entries.filter((entry) => entry.kind === "question");
    expect(questions[0]).toMatchObject({ asker: "Auditor", agent: true, fields: [{ question: expect.stringMatching(/What was the 482\.50 EUR charge/), options: [] }] });
    expect(questions[1]).toMatchObject({ agent: false, to: "Sam Rivera", title: "Reimbursement" });
    expect(questions[1]?.kind === "question" && questions[1].fields[0]).toEqual({ question: "How should we pay you back?", options: ["bank_transfer", "payroll", "card_refund"] });
  });

  it("draws agents only in who handed to whom", async () => {
    const { events } = await answeredRun();
    expect(handoffGraph(events)).toEqual({ agents: [{ name: "Auditor", turns: 2 }], edges: [] });
  });
});
