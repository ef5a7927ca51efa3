import { afterEach, describe, expect, it } from "vitest";
import { askCallbackTarget } from "@/lib/asks/ask-webhooks";
import { createOutboxDrainer } from "@/lib/notifications/outbox";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { startReceiver } from "./ask-events-support";

const LEASE_MS = 1_000;
const RECEIVER_TAKES_MS = 3_000;

describe.each(DATABASE_KINDS)("a delivery slower than its lease, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  it("keeps its lease while it runs: another instance takes nothing, and the receiver gets it once", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver();
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: receiver.url });
    const { db } = fixture.database;
    // Both instances on real time from the fixture's moment, so leases run out as they would.
    const startedAt = fixture.clock.now.getTime();
    const started = performance.now();
    const now = () => new Date(startedAt + (performance.now() - started));
    const callback = askCallbackTarget({ db, privateCallbacks: "allow", maxAttempts: 1 });
    const slow = createOutboxDrainer({
      db,
      leaseMs: LEASE_MS,
      now,
      targets: [{ name: "callback", deliver: async (event) => (await new Promise((resolve) => setTimeout(resolve, RECEIVER_TAKES_MS)), callback.deliver(event)) }],
    });
    const other = createOutboxDrainer({ db, leaseMs: LEASE_MS, now, targets: [callback] });

    const slowDrain = slow.drainOnce();
    let takenByOther = 0;
    for (let check = 0; check < 6; check++) {
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS / 2));
      takenByOther += await other.drainOnce();
    }
    expect(await slowDrain).toBe(1);

    expect(takenByOther).toBe(0);
    expect(receiver.received).toHaveLength(1);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ status: "delivered", deliveries: 1 }]);
  });
});
