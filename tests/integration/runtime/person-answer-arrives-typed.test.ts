import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a person's answer to a flow's questionnaire (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("parks the run on one question record and one slot holding the spec, for the person asked", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const [question, ...others] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(others).toEqual([]);
    expect(question).toMatchObject({
      taskId: task.id,
      status: "open",
      attemptsAllowed: 3,
      attemptsUsed: 0,
      title: "Payback",
      spec: { fields: [{ path: "method", kind: "enum" }, { path: "urgent" }, { path: "currency", default: "EUR" }, { path: "attendees" }] },
      slot: { status: "open", assigneeId: fixture.filer.id, candidateIds: [fixture.filer.id] },
    });
    expect(await fixture.runtime.questionsFor(fixture.colleague.id)).toEqual([]);
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("waiting");
  });

  it("completes the workflow with the typed value built from what was typed", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const result = await fixture.runtime.submitAnswer({
      questionId: question!.id,
      by: fixture.filer.id,
      answer: { text: { method: "2", urgent: "y", currency: "-", attendees: "Ana, Ben" } },
    });
    expect(result).toMatchObject({ status: "answered", value: { method: "payroll", urgent: true, currency: "EUR", attendees: ["Ana", "Ben"] } });
    await fixture.runtime.drain();
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row).toMatchObject({ status: "completed", input: { payback: { method: "payroll", urgent: true, currency: "EUR", attendees: ["Ana", "Ben"] } } });
    expect(await fixture.runtime.questionFor(question!.id, fixture.filer.id)).toMatchObject({ status: "answered", answeredBy: fixture.filer.id, reason: null });
  });

  it("takes one answer only; a second submission is told who answered and when", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const answer = { text: { method: "payroll", urgent: "n", attendees: "Ana" } };
    const results = await Promise.all([1, 2, 3].map(() => fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer })));
    expect(results.filter((result) => result.status === "answered")).toHaveLength(1);
    for (const lost of results.filter((result) => result.status !== "answered")) {
      expect(lost).toMatchObject({ status: "conflict", answeredBy: { id: fixture.filer.id, name: "Fay Filer" } });
      expect(lost.status === "conflict" && lost.message).toMatch(/^Already answered by Fay Filer at 20/);
    }
  });

  it("is not open to anyone but the person asked", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const result = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.colleague.id, answer: { text: { method: "payroll", urgent: "n", attendees: "Ana" } } });
    expect(result.status).toBe("forbidden");
    expect(await fixture.runtime.questionFor(question!.id, fixture.colleague.id)).toBeNull();
    expect((await fixture.runtime.questionFor(question!.id, fixture.filer.id))?.status).toBe("open");
  });

  it("has no turn events and no turn clock for the person", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const before = (await fixture.runtime.events(task.id)).length;
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { text: { method: "1", urgent: "n", attendees: "Ana" } } });
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
