import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { DEPLOY_SCHEMA } from "../asks/ask-fixture";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "./questions-api-fixture";

describe.each(DATABASE_KINDS)("a personal token on %s", (kind) => {
  let fixture: QuestionsApiFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("acts as its person: me is who made it", async () => {
    fixture = await createQuestionsApiFixture(kind);
    expect(await fixture.api.me(fixture.adaToken)).toEqual({ id: fixture.ada.id, email: "ada@parley.test", name: "Ada Answerer", roles: ["assignee"] });
    // An agent key is nobody's: it asks, it does not answer.
    await expect(fixture.api.me(fixture.key)).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("lists only its person's open questions, soonest due first, with who asks, the spec and the attempts", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const later = await fixture.ask({ title: "Deploy later?", due_in_seconds: 7200, response_schema: DEPLOY_SCHEMA, context: { service: "billing" } });
    const sooner = await fixture.ask({ title: "Deploy sooner?", due_in_seconds: 600 });
    const undated = await fixture.ask({ title: "Whenever?" });
    const forBo = await fixture.ask({ to: "bo@parley.test", title: "Bo's own" });

    const page = await fixture.api.list(fixture.adaToken);
    expect(page.data.map((question) => question.id)).toEqual([sooner.questionId, later.questionId, undated.questionId]);
    expect(page.next_cursor).toBeNull();
    expect(page.data[1]).toMatchObject({
      title: "Deploy later?",
      asked_by: { kind: "api", name: "Release bot" },
      subject: { title: "Deploy later?", summary: "Asked by Release bot" },
      url: `https://parley.example.test/questions/${later.questionId}`,
      due_at: new Date(fixture.clock.now.getTime() + 7_200_000).toISOString(),
      opened_at: fixture.clock.now.toISOString(),
      attempts: { allowed: 3, refused: 0 },
    });
    expect(page.data[1]!.spec.fields.map((field) => [field.path, field.kind])).toEqual([
      ["decision", "enum"],
      ["window_hours", "integer"],
      ["notify", "boolean"],
    ]);
    expect((await fixture.api.list(fixture.boToken)).data.map((question) => question.id)).toEqual([forBo.questionId]);
  });

  it("pages through them with a cursor that holds even once its question is answered", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const asked = [];
    for (let index = 0; index < 5; index++) asked.push((await fixture.ask({ title: `Question ${index}`, due_in_seconds: 600 + index })).questionId);
    const first = await fixture.api.list(fixture.adaToken, { limit: 2 });
    expect(first.data.map((question) => question.id)).toEqual(asked.slice(0, 2));
    await fixture.api.answer(fixture.adaToken, asked[1]!, { answers: { answer: "Yes." } });
    const second = await fixture.api.list(fixture.adaToken, { limit: 2, cursor: first.next_cursor });
    expect(second.data.map((question) => question.id)).toEqual(asked.slice(2, 4));
    const third = await fixture.api.list(fixture.adaToken, { limit: 2, cursor: second.next_cursor });
    expect(third).toMatchObject({ data: [{ id: asked[4] }], next_cursor: null });
    await expect(fixture.api.list(fixture.adaToken, { limit: 101 })).rejects.toMatchObject({ code: "invalid_input", path: "limit" });
    await expect(fixture.api.list(fixture.adaToken, { cursor: "' or 1=1 --" })).rejects.toMatchObject({ code: "invalid_input", path: "cursor" });
  });

  it("reads one of its person's questions with its context, and another's or an unknown one as not found", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const mine = await fixture.ask({ title: "Deploy?", body: "Release 4.2 of billing.", context: { service: "billing" }, response_schema: DEPLOY_SCHEMA });
    const bos = await fixture.ask({ to: "bo@parley.test", title: "Bo's own" });
    expect(await fixture.api.get(fixture.adaToken, mine.questionId)).toMatchObject({
      id: mine.questionId,
      status: "open",
      reason: null,
      answered_by: null,
      answered_at: null,
      context: { title: "What the asker gave", facts: [{ label: "Asked by", value: "Release bot" }, { label: "Details", value: "Release 4.2 of billing." }, { label: "service", value: "billing" }] },
    });
    for (const id of [bos.questionId, "00000000-0000-4000-8000-000000000000", "not-a-uuid", "__proto__"]) {
      await expect(fixture.api.get(fixture.adaToken, id)).rejects.toMatchObject({ code: "not_found" });
      await expect(fixture.api.answer(fixture.adaToken, id, { answers: { answer: "Mine now." } })).rejects.toMatchObject({ code: "not_found" });
      await expect(fixture.api.nothing(fixture.adaToken, id, { reason: "non-interactive" })).rejects.toMatchObject({ code: "not_found" });
    }
    // Bo's question is untouched by all that.
    expect(await fixture.api.get(fixture.boToken, bos.questionId)).toMatchObject({ status: "open", attempts: { refused: 0 } });
  });
});
