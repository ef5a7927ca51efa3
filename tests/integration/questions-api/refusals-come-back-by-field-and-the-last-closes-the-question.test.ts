import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { DEPLOY_SCHEMA } from "../asks/ask-fixture";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "./questions-api-fixture";
import { httpRefusalOf } from "@/tests/support/http-refusal";

describe.each(DATABASE_KINDS)("a refused answer over the person's API on %s", (kind) => {
  let fixture: QuestionsApiFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("comes back in the schema's words by field path, counting attempts; the last refusal closes the question with nothing", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const { askId, questionId } = await fixture.ask({ response_schema: DEPLOY_SCHEMA });
    const bad = { answers: { decision: "approve", window_hours: "40" } };

    expect(await httpRefusalOf(fixture.api.answer(fixture.adaToken, questionId, bad))).toMatchObject({
      code: "answer_refused",
      status: 422,
      details: { fields: { window_hours: ["Between 1 and 12 hours, please."] }, form: [], attempt: "attempt 2 of 3", attempts_left: 2 },
    });
    // A field left out is left empty: the schema's own word for a missing answer.
    await expect(fixture.api.answer(fixture.adaToken, questionId, { answers: { window_hours: "4" } })).rejects.toMatchObject({
      code: "answer_refused",
      details: { fields: { decision: ["This question needs an answer."] }, attempt: "attempt 3 of 3", attempts_left: 1 },
    });
    expect(await fixture.api.get(fixture.adaToken, questionId)).toMatchObject({ status: "open", attempts: { allowed: 3, refused: 2 } });
    expect(fixture.settled.count).toBe(0);

    expect(await httpRefusalOf(fixture.api.answer(fixture.adaToken, questionId, bad))).toMatchObject({
      code: "attempts_exhausted",
      status: 409,
      details: { fields: { window_hours: ["Between 1 and 12 hours, please."] }, attempts_left: 0, reason: "refused" },
    });
    expect(fixture.settled.count).toBe(1);
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "nothing", reason: "refused" });
    expect(await fixture.api.get(fixture.adaToken, questionId)).toMatchObject({ status: "nothing", reason: "refused", attempts: { refused: 3 } });
    // Closed: a good answer now is told why, and changes nothing.
    await expect(fixture.api.answer(fixture.adaToken, questionId, { answers: { decision: "approve", window_hours: "4" } })).rejects.toMatchObject({
      code: "question_closed",
      details: { reason: "refused" },
    });
  });
});
