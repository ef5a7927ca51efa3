import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "./questions-api-fixture";
import { httpRefusalOf } from "@/tests/support/http-refusal";

describe.each(DATABASE_KINDS)("a question put to several people on %s", (kind) => {
  let fixture: QuestionsApiFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("is answered by whoever is first; the other is told who answered and when, and their answer is not taken", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const { askId, questionId } = await fixture.ask({ to: ["ada@parley.test", "bo@parley.test"] });
    expect((await fixture.api.list(fixture.adaToken)).data.map((question) => question.id)).toEqual([questionId]);
    expect(await fixture.api.answer(fixture.boToken, questionId, { answers: { answer: "Ship it." } })).toMatchObject({ status: "answered", value: { answer: "Ship it." } });
    const answeredAt = fixture.clock.now.toISOString();
    fixture.advance(60_000);

    expect(await httpRefusalOf(fixture.api.answer(fixture.adaToken, questionId, { answers: { answer: "Hold it." } }))).toMatchObject({
      code: "already_answered",
      status: 409,
      message: `Already answered by Bo Second at ${answeredAt}.`,
      details: { answered_by: { name: "Bo Second" }, answered_at: answeredAt },
    });
    await expect(fixture.api.nothing(fixture.adaToken, questionId, { reason: "non-interactive" })).rejects.toMatchObject({ code: "already_answered" });
    expect(await fixture.api.get(fixture.adaToken, questionId)).toMatchObject({ status: "answered", answered_by: { name: "Bo Second" }, answered_at: answeredAt });
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "answered", answer: "Ship it.", answered_by: { name: "Bo Second" } });
  });
});
