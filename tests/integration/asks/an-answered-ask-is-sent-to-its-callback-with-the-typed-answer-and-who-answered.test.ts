import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture, DEPLOY_SCHEMA } from "./ask-fixture";
import { askEventDrainer, startReceiver, verifiedEvent } from "./ask-events-support";

describe.each(DATABASE_KINDS)("an answered ask with a callback_url on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  it("is sent, after the answer commits, as ask.answered signed with its key's secret, carrying the ask as GET returns it", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver();
    const drainer = askEventDrainer(fixture);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Deploy?", response_schema: DEPLOY_SCHEMA, callback_url: receiver.url });
    expect(await fixture.outboxOf(ask.id)).toEqual([]);
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    fixture.advance(90_000);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { decision: "approve", window_hours: "4" } } });

    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ kind: "ask-answered", notifier: "callback", status: "queued" }]);
    expect(receiver.received).toHaveLength(0);
    expect(await drainer.drainOnce()).toBe(1);
    expect(await drainer.drainOnce()).toBe(0);

    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received;
    const event = verifiedEvent(fixture.key.webhookSecret!, webhook!);
    expect(event).toEqual({ type: "ask.answered", timestamp: "2026-12-04T09:01:30.000Z", data: await fixture.service.get(fixture.key, ask.id) });
    expect(event.data).toMatchObject({
      status: "answered",
      answer: { decision: "approve", window_hours: 4, notify: false },
      answered_by: { email: "ada@parley.test", name: "Ada Answerer" },
      reason: null,
    });
    expect(webhook!.headers["webhook-id"]).toBe(`${ask.id}:ask-answered`);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ status: "delivered", deliveries: 1, report: { notifier: "callback", status: "delivered" } }]);
  });

  it("is not signed with another key's secret", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver();
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?", callback_url: receiver.url });
    await fixture.service.cancel(fixture.key, ask.id);
    await askEventDrainer(fixture).drainOnce();
    expect(receiver.received).toHaveLength(1);
    expect(() => verifiedEvent(fixture!.otherKey.webhookSecret!, receiver!.received[0]!)).toThrow();
  });

  it("without a callback_url (and no global receiver) queues nothing", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "yes" } } });
    expect((await fixture.service.get(fixture.key, ask.id)).status).toBe("answered");
    expect(await fixture.outboxOf(ask.id)).toEqual([]);
  });
});
