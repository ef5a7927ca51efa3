import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a question closed because nobody is at the terminal (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("gives the flow nothing with reason non-interactive, never recorded as the person's answer", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(await fixture.runtime.closeWithNothing({ questionId: question!.id, reason: "non-interactive", by: fixture.filer.id })).toEqual({
      status: "closed",
      questionId: question!.id,
      reason: "non-interactive",
    });
    await fixture.runtime.drain();
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row).toMatchObject({ status: "failed", input: { nothing: "non-interactive" } });
    expect(await fixture.runtime.questionFor(question!.id, fixture.filer.id)).toMatchObject({ status: "nothing", reason: "non-interactive", answeredBy: null, answer: null });
    const kinds = (await fixture.runtime.events(task.id)).map((event) => event.kind);
    expect(kinds).not.toContain("answered");
  });

  it("cannot be closed by someone the question is not for", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect((await fixture.runtime.closeWithNothing({ questionId: question!.id, reason: "non-interactive", by: fixture.colleague.id })).status).toBe("forbidden");
    expect((await fixture.runtime.questionFor(question!.id, fixture.filer.id))?.status).toBe("open");
  });
});
