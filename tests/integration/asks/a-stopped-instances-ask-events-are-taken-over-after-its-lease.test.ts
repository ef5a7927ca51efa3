import { afterEach, describe, expect, it } from "vitest";
import { claimDueNotices } from "@/db/queries/notification-outbox";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, startReceiver, verifiedEvent } from "./ask-events-support";

const LEASE_MS = 5 * 60_000;

describe.each(DATABASE_KINDS)("an ask event claimed by an instance that dies, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  it("is left alone while its lease runs, then taken over and delivered under the same webhook-id", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver();
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: receiver.url });
    // An instance claims the row and is killed before it delivers or records anything.
    const at = new Date(fixture.clock.now);
    const claimed = await claimDueNotices(fixture.database.db, {
      at,
      leaseUntil: new Date(at.getTime() + LEASE_MS),
      limit: 10,
      deliverable: { notifiers: [], targets: ["callback"] },
    });
    expect(claimed).toHaveLength(1);

    const survivor = askEventDrainer(fixture, { leaseMs: LEASE_MS });
    fixture.advance(LEASE_MS - 1_000);
    expect(await survivor.drainOnce()).toBe(0);
    fixture.advance(1_000);
    expect(await survivor.drainOnce()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(`${ask.id}:ask-nothing`);
    expect(verifiedEvent(fixture.key.webhookSecret!, receiver.received[0]!)).toMatchObject({ type: "ask.nothing", data: { reason: "away" } });
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ status: "delivered", deliveries: 2 }]);
  });
});
