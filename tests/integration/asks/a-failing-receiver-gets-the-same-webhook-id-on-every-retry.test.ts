import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, RETRY_DELAY_MS, startReceiver, verifiedEvent } from "./ask-events-support";

describe.each(DATABASE_KINDS)("a callback receiver that fails, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  it("twice and then accepts gets the event three times under one webhook-id, retried with backoff across restarts", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver((index) => ({ status: index < 2 ? 503 : 200 }));
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?", callback_url: receiver.url });
    await fixture.service.cancel(fixture.key, ask.id);

    // Each delivery by a new drainer, as if the instance restarted in between: the schedule is the outbox's.
    expect(await askEventDrainer(fixture).drainOnce()).toBe(1);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ status: "queued", deliveries: 1, report: { status: "failed", retryable: true, attempts: [{ statusCode: 503 }] } }]);
    fixture.advance(RETRY_DELAY_MS - 1_000);
    expect(await askEventDrainer(fixture).drainOnce()).toBe(0);
    fixture.advance(1_000);
    expect(await askEventDrainer(fixture).drainOnce()).toBe(1);
    // The second wait is twice the first.
    fixture.advance(RETRY_DELAY_MS);
    expect(await askEventDrainer(fixture).drainOnce()).toBe(0);
    fixture.advance(RETRY_DELAY_MS);
    expect(await askEventDrainer(fixture).drainOnce()).toBe(1);

    expect(receiver.received).toHaveLength(3);
    expect(receiver.received.map((webhook) => webhook.headers["webhook-id"])).toEqual([`${ask.id}:ask-nothing`, `${ask.id}:ask-nothing`, `${ask.id}:ask-nothing`]);
    // Each try is signed afresh, and carries the same event.
    const bodies = receiver.received.map((webhook) => verifiedEvent(fixture!.key.webhookSecret!, webhook));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ status: "delivered", deliveries: 3, report: { status: "delivered" } }]);
  });
});
