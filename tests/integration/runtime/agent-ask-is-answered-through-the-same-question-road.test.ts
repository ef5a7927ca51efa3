import { afterEach, describe, expect, it } from "vitest";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { storedMessages } from "./agents";
import { CLERK_OPTIONS, CLERK_QUESTION, createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("an agent's ask on the question road (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("is a one-field text question in the inbox of whoever the slot names", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.colleague.id);
    expect(question).toMatchObject({ taskId: task.id, agent: "Clerk", spec: { fields: [{ path: "answer", kind: "text" }] } });
    expect(question?.spec.fields[0]?.question).toBe(CLERK_QUESTION);
  });

  it("takes a submitted answer as the pending call's result, recording who answered", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const result = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { form: { answer: "A dinner." } } });
    expect(result).toEqual({ status: "answered", questionId: question!.id, value: { answer: "A dinner." } });
    await fixture.runtime.drain();
    const results = (await storedMessages(fixture.database.db, "Clerk", task.id)).filter((message) => message.role === "tool");
    expect(results.map((message) => message.toolCallId)).toHaveLength(1);
    expect(JSON.stringify(results[0]?.message)).toContain("A dinner.");
    const [first, second] = await listQuestionsForTask(fixture.database.db, task.id);
    expect(first).toMatchObject({ status: "answered", answeredBy: fixture.filer.id, answer: { text: "A dinner." } });
    // The Clerk found it thin and asked again, offering options: suggestions on a text question, so the person may write their own.
    expect(second?.spec.fields[0]).toMatchObject({ kind: "text", options: CLERK_OPTIONS.map((value) => ({ value })) });
  });

  it("refuses an empty answer without committing it or using an attempt", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startTask();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const result = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { form: { answer: "   " } } });
    expect(result).toMatchObject({ status: "refused", counted: false, attempt: "attempt 1 of 3", fieldErrors: { answer: ["This question needs an answer."] } });
    expect((await fixture.runtime.questionFor(question!.id, fixture.filer.id))?.slot?.status).toBe("open");
  });
});
