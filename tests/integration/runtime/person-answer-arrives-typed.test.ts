import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { reviewTasks } from "@/examples/expense-review/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "./example-fixture";

describe.each(DATABASE_KINDS)("a person's answer to a flow's questionnaire (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("parks the run on one question record and one slot holding the spec, for the person asked", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startApprovedReview();
    const [question, ...others] = await fixture.runtime.questionsFor(fixture.sam.id);
    expect(others).toEqual([]);
    expect(question).toMatchObject({
      taskId: task.id,
      status: "open",
      attemptsAllowed: 3,
      attemptsUsed: 0,
      title: "Reimbursement",
      spec: { fields: [{ path: "method", kind: "enum" }, { path: "urgent" }, { path: "currency", default: "EUR" }, { path: "attendees" }] },
      slot: { status: "open", assigneeId: fixture.sam.id, candidateIds: [fixture.sam.id] },
    });
    expect(await fixture.runtime.questionsFor(fixture.priya.id)).toEqual([]);
    const [row] = await fixture.database.db.select().from(reviewTasks).where(eq(reviewTasks.id, task.id));
    expect(row?.status).toBe("waiting");
  });

  it("completes the workflow with the typed value built from what was typed", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const result = await fixture.runtime.submitAnswer({
      questionId: question!.id,
      by: fixture.sam.id,
      answer: { text: { method: "2", urgent: "y", currency: "-", attendees: "Ana, Ben" } },
    });
    expect(result).toMatchObject({ status: "answered", value: { method: "payroll", urgent: true, currency: "EUR", attendees: ["Ana", "Ben"] } });
    await fixture.runtime.drain();
    const [row] = await fixture.database.db.select().from(reviewTasks).where(eq(reviewTasks.id, task.id));
    expect(row).toMatchObject({ status: "completed", reimbursement: { method: "payroll", urgent: true, currency: "EUR", attendees: ["Ana", "Ben"] }, reimbursementNothing: null });
    expect(await fixture.runtime.questionFor(question!.id, fixture.sam.id)).toMatchObject({ status: "answered", answeredBy: fixture.sam.id, reason: null });
  });

  it("takes one answer only; a second submission is told who answered and when", async () => {
    fixture = await createExampleFixture(kind);
    await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const answer = { text: { method: "payroll", urgent: "n", attendees: "Ana" } };
    const results = await Promise.all([1, 2, 3].map(() => fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer })));
    expect(results.filter((result) => result.status === "answered")).toHaveLength(1);
    for (const lost of results.filter((result) => result.status !== "answered")) {
      expect(lost).toMatchObject({ status: "conflict", answeredBy: { id: fixture.sam.id, name: "Sam Rivera" } });
      expect(lost.status === "conflict" && lost.message).toMatch(/^Already answered by Sam Rivera at 20/);
    }
  });

  it("is not open to anyone but the person asked", async () => {
    fixture = await createExampleFixture(kind);
    await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const result = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.priya.id, answer: { text: { method: "payroll", urgent: "n", attendees: "Ana" } } });
    expect(result.status).toBe("forbidden");
    expect(await fixture.runtime.questionFor(question!.id, fixture.priya.id)).toBeNull();
    expect((await fixture.runtime.questionFor(question!.id, fixture.sam.id))?.status).toBe("open");
  });

  it("has no turn events and no turn clock for the person", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startApprovedReview();
    const [question] = await fixture.runtime.questionsFor(fixture.sam.id);
    const before = (await fixture.runtime.events(task.id)).length;
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.sam.id, answer: { text: { method: "1", urgent: "n", attendees: "Ana" } } });
    await fixture.runtime.drain();
    const after = (await fixture.runtime.events(task.id)).slice(before);
    expect(after.map((event) => event.kind)).toEqual(["answered", "state-entered", "completed"]);
    const asked = (await fixture.runtime.events(task.id)).find((event) => event.data.questionId === question!.id && event.kind === "question-asked");
    expect(asked?.agent).toBeNull();
    expect(asked?.data.fields).toEqual([
      { path: "method", question: "How should we pay you back?", kind: "enum", options: ["bank_transfer", "payroll", "card_refund"] },
      { path: "urgent", question: "Is it urgent?", kind: "boolean", options: null },
      { path: "currency", question: "Which currency should we pay in?", kind: "text", options: null },
      { path: "attendees", question: "Who attended?", kind: "list", options: null },
    ]);
  });
});
