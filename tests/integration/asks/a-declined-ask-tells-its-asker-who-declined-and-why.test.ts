import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, startReceiver, verifiedEvent } from "./ask-events-support";

/*
 * A person who cannot answer an API ask declines it: whoever asked learns it at every door it
 * listens on — a long-poll held open, the `ask.nothing` webhook — as nothing, reason `declined`,
 * with who declined and the note they left.
 */
describe.each(DATABASE_KINDS)("an ask its person declines, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    await fixture?.close();
    fixture = undefined;
  });

  it("ends a held long-poll with the ask declined, who declined it and their note", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Roll back the release?" });
    const waiting = fixture.service.wait(fixture.key, ask.id, 30);
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.decline({ questionId: question!.id, by: fixture.ada.id, note: "I'm not on call this week: ask Bo." });
    expect(await waiting).toMatchObject({
      status: "nothing",
      reason: "declined",
      declined_by: { email: "ada@parley.test", name: "Ada Answerer" },
      note: "I'm not on call this week: ask Bo.",
      answer: null,
      answered_by: null,
    });
  });

  it("sends ask.nothing to its callback with who declined and their note, signed per Standard Webhooks", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    const callback = await startReceiver();
    receivers.push(callback);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Roll back the release?", callback_url: callback.url });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.decline({ questionId: question!.id, by: fixture.ada.id, note: "Ask Bo." });

    expect(await askEventDrainer(fixture).drainOnce()).toBe(1);
    const view = await fixture.service.get(fixture.key, ask.id);
    expect(view).toMatchObject({ status: "nothing", reason: "declined", declined_by: { email: "ada@parley.test" }, note: "Ask Bo." });
    expect(verifiedEvent(fixture.key.webhookSecret!, callback.received[0]!)).toEqual({ type: "ask.nothing", timestamp: view.answered_at, data: view });
  });
});
