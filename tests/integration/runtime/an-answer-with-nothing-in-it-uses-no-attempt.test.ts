import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("an answer with nothing in it (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("is refused on its fields without using an attempt, however often it is sent", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const submit = (form: Record<string, string>) => fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { form } });
    for (let time = 0; time < 4; time++) {
      // An empty "Send": the questionId rides along, every question is empty.
      expect(await submit({ method: "", currency: "   ", attendees: "" })).toMatchObject({ status: "refused", counted: false, attempt: "attempt 1 of 3", attemptsLeft: 3 });
    }
    expect(await fixture.runtime.questionFor(question!.id, fixture.filer.id)).toMatchObject({ status: "open", attemptsUsed: 0 });
  });

  it("is no longer empty once one question has text in it, and then counts", async () => {
    fixture = await createRuntimeFixture(kind);
    await fixture.startQuestionnaireTask();
    const [question] = await fixture.runtime.questionsFor(fixture.filer.id);
    const result = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { form: { currency: "euro" } } });
    expect(result).toMatchObject({ status: "refused", counted: true, attempt: "attempt 2 of 3", attemptsLeft: 2 });
  });
});
