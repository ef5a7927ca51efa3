import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { storedMessages } from "./agents";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

/*
 * "I can't answer this": a person a question is put to ends it with nothing, reason `declined`, and
 * the note they leave reaches whoever asked — a flow's handler, or an agent's ask call as its result.
 */
describe.each(DATABASE_KINDS)("a person who declines a question (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("gives the flow nothing, reason declined, with the note as they wrote it (trimmed)", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(await fixture.runtime.decline({ questionId: question!.id, by: fixture.filer.id, note: "  I never took that taxi: ask Cole.  " })).toEqual({
      status: "closed",
      questionId: question!.id,
      reason: "declined",
      note: "I never took that taxi: ask Cole.",
    });
    await fixture.runtime.drain();
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row).toMatchObject({ status: "failed", input: { nothing: "declined", note: "I never took that taxi: ask Cole." } });
    expect(await fixture.runtime.questionFor(question!.id, fixture.filer.id)).toMatchObject({
      status: "nothing",
      reason: "declined",
      declinedBy: fixture.filer.id,
      declinedByName: fixture.filer.name,
      declineNote: "I never took that taxi: ask Cole.",
      answeredBy: null,
      answer: null,
    });
    const nothing = (await fixture.runtime.events(task.id)).find((event) => event.kind === "nothing");
    expect(nothing?.data).toMatchObject({ reason: "declined", by: fixture.filer.id, note: "I never took that taxi: ask Cole." });
  });

  it("gives an agent's ask call the note as its result, marked as no answer", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.colleague.id);
    expect((await fixture.runtime.decline({ questionId: question!.id, by: fixture.colleague.id, note: "Only Fay knows." })).status).toBe("closed");
    await fixture.runtime.drain();
    const results = (await storedMessages(fixture.database.db, "Clerk", task.id)).filter((message) => message.role === "tool");
    expect(JSON.stringify(results[0]?.message)).toContain("[no answer — reason: declined] Nobody answered this question: the person declined to answer it. Their note: Only Fay knows.");
  });

  it("takes a blank note as none", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(await fixture.runtime.decline({ questionId: question!.id, by: fixture.filer.id, note: " \n " })).toMatchObject({ status: "closed", note: null });
    await fixture.runtime.drain();
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.input).toEqual({ nothing: "declined" });
  });

  it("refuses a note over 1,000 characters and leaves the question open", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(await fixture.runtime.decline({ questionId: question!.id, by: fixture.filer.id, note: "x".repeat(1_001) })).toEqual({
      status: "invalid_input",
      questionId: question!.id,
      path: "note",
      message: "The note is 1,001 characters long: keep it to 1,000.",
    });
    expect(await fixture.runtime.questionFor(question!.id, fixture.filer.id)).toMatchObject({ status: "open", reason: null });
  });

  it("cannot be done by someone the question is not put to", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect((await fixture.runtime.decline({ questionId: question!.id, by: fixture.outsider.id, note: "Not mine." })).status).toBe("forbidden");
    expect(await fixture.runtime.questionFor(question!.id, fixture.filer.id)).toMatchObject({ status: "open", reason: null });
  });

  it("is answered alike when declined again, and an answer after it is told who declined and why", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startTask();
    await fixture.runtime.drain();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    await fixture.runtime.decline({ questionId: question!.id, by: fixture.filer.id, note: "On leave." });
    expect(await fixture.runtime.decline({ questionId: question!.id, by: fixture.filer.id, note: "Something else." })).toEqual({
      status: "closed",
      questionId: question!.id,
      reason: "declined",
      note: "On leave.",
    });
    expect(await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.colleague.id, answer: { form: { answer: "A dinner." } } })).toMatchObject({
      status: "conflict",
      reason: "declined",
      message: `${fixture.filer.name} declined this question: “On leave.”`,
    });
    expect((await fixture.runtime.decline({ questionId: question!.id, by: fixture.colleague.id })).status).toBe("conflict");
  });
});
