import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture, DEPLOY_SCHEMA } from "./ask-fixture";

describe.each(DATABASE_KINDS)("an answered ask on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("reads answered, with the value the schema typed, who answered, when and how long it waited", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Deploy?", response_schema: DEPLOY_SCHEMA });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    fixture.advance(90_000);
    const submitted = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { decision: "approve", window_hours: "4" } } });
    expect(submitted.status).toBe("answered");
    expect(await fixture.service.get(fixture.key, ask.id)).toMatchObject({
      status: "answered",
      answer: { decision: "approve", window_hours: 4, notify: false },
      answered_by: { email: "ada@parley.test", name: "Ada Answerer" },
      answered_at: "2026-12-04T09:01:30.000Z",
      waited_seconds: 90,
      reason: null,
    });
  });

  it("without a schema, reads the person's words as a string", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "What should the release note say?" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "  Faster invoices.  " } } });
    const answered = await fixture.service.get(fixture.key, ask.id);
    expect(answered.status).toBe("answered");
    expect(answered.answer).toBe("Faster invoices.");
  });

  it("ends its run, so the runs list shows it answered", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "yes" } } });
    await fixture.runtime.drain();
    const events = await fixture.runtime.events(ask.id);
    expect(events.map((event) => event.kind)).toEqual(expect.arrayContaining(["question-asked", "answered", "completed"]));
  });
});
