import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { DEPLOY_SCHEMA } from "../asks/ask-fixture";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "./questions-api-fixture";

describe.each(DATABASE_KINDS)("an answer over the person's API on %s", (kind) => {
  let fixture: QuestionsApiFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("is read like typed text — a number for a choice, a dash for the default — and comes back typed; the ask reads answered", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const { askId, questionId } = await fixture.ask({ response_schema: DEPLOY_SCHEMA });
    const answered = await fixture.api.answer(fixture.adaToken, questionId, { answers: { decision: "1", window_hours: " 4 ", notify: "-" } });
    expect(answered).toEqual({ id: questionId, status: "answered", value: { decision: "approve", window_hours: 4, notify: false } });
    expect(fixture.settled.count).toBe(1);
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({
      status: "answered",
      answer: { decision: "approve", window_hours: 4, notify: false },
      answered_by: { email: "ada@parley.test", name: "Ada Answerer" },
    });
    expect(await fixture.api.get(fixture.adaToken, questionId)).toMatchObject({ status: "answered", answered_by: { name: "Ada Answerer" }, answered_at: fixture.clock.now.toISOString() });
    expect((await fixture.api.list(fixture.adaToken)).data).toEqual([]);
  });

  it("names no field the question lacks, and sends only text: refused before it is judged, no attempt spent", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const { askId, questionId } = await fixture.ask({ response_schema: DEPLOY_SCHEMA });
    await expect(fixture.api.answer(fixture.adaToken, questionId, { answers: { decision: "approve", window_hours: "4", notfy: "y" } })).rejects.toMatchObject({
      code: "invalid_input",
      path: "answers.notfy",
      message: "This question has no field “notfy”: its fields are decision, window_hours, notify.",
    });
    // Keys a plain object cannot hold, or that every object has, name no field either.
    const prototypeKeys = ['{"answers":{"__proto__":"approve"}}', '{"answers":{"constructor":"approve"}}', '{"answers":{"decision":"approve","toString":"4"}}'].map((text) => JSON.parse(text) as unknown);
    for (const body of [{ answers: { window_hours: 4 } }, { answers: { decision: null } }, { answers: "approve" }, {}, { answers: {}, extra: 1 }, null, [], ...prototypeKeys]) {
      await expect(fixture.api.answer(fixture.adaToken, questionId, body)).rejects.toMatchObject({ code: "invalid_input" });
    }
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "open", attempts: { allowed: 3, refused: 0 } });
  });
});
