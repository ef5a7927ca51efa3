import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "./questions-api-fixture";

describe.each(DATABASE_KINDS)("nobody at the terminal, over the person's API on %s", (kind) => {
  let fixture: QuestionsApiFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("closes the question with nothing, reason non-interactive; saying it again is answered alike, and an answer after is told why", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const { askId, questionId } = await fixture.ask();
    expect(await fixture.api.nothing(fixture.adaToken, questionId, { reason: "non-interactive" })).toEqual({ id: questionId, status: "nothing", reason: "non-interactive", note: null });
    expect(fixture.settled.count).toBe(1);
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "nothing", reason: "non-interactive", answered_by: null });
    expect(await fixture.api.get(fixture.adaToken, questionId)).toMatchObject({ status: "nothing", reason: "non-interactive" });
    expect(await fixture.api.nothing(fixture.adaToken, questionId, { reason: "non-interactive" })).toEqual({ id: questionId, status: "nothing", reason: "non-interactive", note: null });
    await expect(fixture.api.answer(fixture.adaToken, questionId, { answers: { answer: "Late." } })).rejects.toMatchObject({
      code: "question_closed",
      message: "This question closed with no answer (non-interactive).",
      details: { reason: "non-interactive" },
    });
  });

  it("takes no other reason from here: away, refused, expired and cancelled are not the person's to say", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const { askId, questionId } = await fixture.ask();
    for (const body of [{ reason: "away" }, { reason: "cancelled" }, { reason: "refused" }, { reason: "expired" }, {}, { reason: "non-interactive", by: "someone" }, { reason: "non-interactive", note: "gone" }, "non-interactive"]) {
      await expect(fixture.api.nothing(fixture.adaToken, questionId, body)).rejects.toMatchObject({ code: "invalid_input" });
    }
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "open" });
  });
});
