import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, GLOBAL_SECRET, startReceiver, verifiedEvent } from "./ask-events-support";

describe.each(DATABASE_KINDS)("with PARLEY_WEBHOOK_URL configured, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    await fixture?.close();
    fixture = undefined;
  });

  it("the global receiver gets each ask's end too, signed with PARLEY_WEBHOOK_SECRET, under the callback's webhook-id", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: true } });
    const callback = await startReceiver();
    const global = await startReceiver();
    receivers.push(callback, global);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?", callback_url: callback.url });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "Ship it Friday." } } });

    expect(await askEventDrainer(fixture, { globalUrl: global.url }).drainOnce()).toBe(2);
    expect(callback.received).toHaveLength(1);
    expect(global.received).toHaveLength(1);
    const view = await fixture.service.get(fixture.key, ask.id);
    expect(verifiedEvent(GLOBAL_SECRET, global.received[0]!)).toEqual({ type: "ask.answered", timestamp: view.answered_at, data: view });
    expect(() => verifiedEvent(fixture!.key.webhookSecret!, global.received[0]!)).toThrow();
    expect(verifiedEvent(fixture.key.webhookSecret!, callback.received[0]!)).toEqual({ type: "ask.answered", timestamp: view.answered_at, data: view });
    expect(global.received[0]!.headers["webhook-id"]).toBe(callback.received[0]!.headers["webhook-id"]);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([
      { notifier: "callback", status: "delivered" },
      { notifier: "webhook", status: "delivered" },
    ]);
  });

  it("an ask without a callback_url goes to the global receiver alone", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: true } });
    const global = await startReceiver();
    receivers.push(global);
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?" });
    expect(await askEventDrainer(fixture, { globalUrl: global.url }).drainOnce()).toBe(1);
    expect(verifiedEvent(GLOBAL_SECRET, global.received[0]!)).toMatchObject({ type: "ask.nothing", data: { id: ask.id, status: "nothing", reason: "away" } });
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ notifier: "webhook", status: "delivered" }]);
  });
});
