import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryReport } from "@/lib/notifiers";
import { createOutboxDrainer } from "@/lib/notifications/outbox";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, startReceiver, verifiedEvent } from "./ask-events-support";

describe.each(DATABASE_KINDS)("a webhook in flight when its instance is killed, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  let release: ((report: DeliveryReport) => void) | undefined;
  afterEach(async () => {
    release?.({ notifier: "callback", status: "failed", retryable: false, attempts: [] });
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
    release = undefined;
  });

  it("is sent again by another instance 30 seconds later, not 5 minutes, under the same webhook-id", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver();
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: receiver.url });

    // The instance that is killed: it claims the event with the default lease and its request never returns.
    // Its clock stands still, so whatever it renews is the lease it first took, as a dead instance's is.
    const claimedAt = new Date(fixture.clock.now);
    const killed = createOutboxDrainer({
      db: fixture.database.db,
      targets: [{ name: "callback", deliver: () => new Promise<DeliveryReport>((resolve) => (release = resolve)) }],
      now: () => claimedAt,
    });
    const killedDrain = killed.drainOnce();
    while ((await fixture.outboxOf(ask.id))[0]?.status !== "delivering") await new Promise((resolve) => setTimeout(resolve, 10));

    const survivor = askEventDrainer(fixture);
    fixture.advance(29_000);
    expect(await survivor.drainOnce()).toBe(0);
    fixture.advance(1_000);
    expect(await survivor.drainOnce()).toBe(1);

    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(`${ask.id}:ask-nothing`);
    expect(verifiedEvent(fixture.key.webhookSecret!, receiver.received[0]!)).toMatchObject({ type: "ask.nothing" });
    // The killed instance's late word changes nothing: the delivery is the survivor's.
    release!({ notifier: "callback", status: "failed", retryable: true, attempts: [] });
    await killedDrain;
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ status: "delivered", deliveries: 2 }]);
  });
});
