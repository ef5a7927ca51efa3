import { afterEach, describe, expect, it } from "vitest";
import type { NothingReason } from "@/db/schema";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture, DEPLOY_SCHEMA } from "./ask-fixture";
import { askEventDrainer, startReceiver, verifiedEvent } from "./ask-events-support";

describe.each(DATABASE_KINDS)("an ask that ends with nothing, with a callback_url, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  async function setUp() {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver();
    return { fixture, receiver };
  }

  /** Delivers the outbox and checks the one event the receiver got: ask.nothing with `reason`, the ask as GET returns it. */
  async function expectNothingSent(askId: string, reason: NothingReason) {
    expect(await fixture!.outboxOf(askId)).toMatchObject([{ kind: "ask-nothing", notifier: "callback", status: "queued" }]);
    expect(await askEventDrainer(fixture!).drainOnce()).toBe(1);
    expect(receiver!.received).toHaveLength(1);
    const [webhook] = receiver!.received;
    const event = verifiedEvent(fixture!.key.webhookSecret!, webhook!);
    const view = await fixture!.service.get(fixture!.key, askId);
    expect(event).toEqual({ type: "ask.nothing", timestamp: view.answered_at, data: view });
    expect(event.data).toMatchObject({ status: "nothing", reason, answer: null, answered_by: null });
    expect(webhook!.headers["webhook-id"]).toBe(`${askId}:ask-nothing`);
  }

  it("to someone away: sent at once, reason away", async () => {
    const { fixture, receiver } = await setUp();
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Approve the invoice?", callback_url: receiver.url });
    expect(ask.status).toBe("nothing");
    await expectNothingSent(ask.id, "away");
  });

  it("past its deadline: sent once the SLA sweep expires it, reason expired", async () => {
    const { fixture, receiver } = await setUp();
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Approve the invoice?", due_in_seconds: 60, callback_url: receiver.url });
    fixture.advance(59_000);
    expect(await fixture.runtime.sweepExpiredSlots()).toBe(0);
    expect(await fixture.outboxOf(ask.id)).toEqual([]);
    fixture.advance(2_000);
    expect(await fixture.runtime.sweepExpiredSlots()).toBe(1);
    await expectNothingSent(ask.id, "expired");
  });

  it("cancelled by its caller: sent, reason cancelled", async () => {
    const { fixture, receiver } = await setUp();
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Approve the invoice?", callback_url: receiver.url });
    await fixture.service.cancel(fixture.key, ask.id);
    await expectNothingSent(ask.id, "cancelled");
  });

  it("refused until its attempts ran out: sent, reason refused", async () => {
    const { fixture, receiver } = await setUp();
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Deploy?", response_schema: DEPLOY_SCHEMA, attempts: 2, callback_url: receiver.url });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { decision: "maybe", window_hours: "4" } } });
    // A refused attempt that leaves attempts over ends nothing: nothing is sent yet.
    expect(await fixture.outboxOf(ask.id)).toEqual([]);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { form: { decision: "maybe", window_hours: "4" } } });
    await expectNothingSent(ask.id, "refused");
  });
});
