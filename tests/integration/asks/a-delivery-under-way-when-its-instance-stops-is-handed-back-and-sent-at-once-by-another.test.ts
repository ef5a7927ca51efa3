import { afterEach, describe, expect, it } from "vitest";
import { until } from "@/tests/faults/support/until";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, startReceiver } from "./ask-events-support";

/** How long the stopping instance waits for its deliveries under way before it hands them back. */
const STOP_BOUND_MS = 300;
const LEASE_MS = 300;

describe.each(DATABASE_KINDS)("an instance stopping while a receiver keeps its delivery waiting, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  it("stops at its bound and hands the delivery back: another instance sends it at once, under the same webhook-id", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    // The first request is never answered; the next one is.
    receiver = await startReceiver((index) => (index === 0 ? "hang" : { status: 204 }));
    // Asked of someone away: the ask ends with nothing at once, and its callback is queued.
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: receiver.url });
    // A short lease, renewed every 100 ms while the delivery is under way (the fixture's clock stands still: only renewals and the hand-back move it).
    const stopping = askEventDrainer(fixture, { leaseMs: LEASE_MS }).start({ intervalMs: 5 });
    const other = askEventDrainer(fixture);
    const { received } = receiver;
    await until("the receiver holds the first delivery", () => received.length === 1, { intervalMs: 10 });

    const began = performance.now();
    const stopped = await stopping.stop({ timeoutMs: STOP_BOUND_MS });
    const took = performance.now() - began;

    expect(stopped).toEqual({ finished: false, handedBack: 1 });
    expect(took).toBeLessThan(STOP_BOUND_MS + 2_000);
    // Not when the lease would have run out: now — and the stopped instance renews it no more.
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
    expect(await other.drainOnce()).toBe(1);
    expect(received).toHaveLength(2);
    expect(received[1]!.headers["webhook-id"]).toBe(received[0]!.headers["webhook-id"]);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ status: "delivered", deliveries: 2 }]);

    // The stopped instance's own try, cut off with the receiver, records nothing over the delivery that landed.
    await receiver.close();
    receiver = undefined;
    await stopping.stop();
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ status: "delivered", deliveries: 2 }]);
  });

  it("with nothing under way, stops at once and hands nothing back", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    const stopped = await askEventDrainer(fixture).start({ intervalMs: 5 }).stop({ timeoutMs: STOP_BOUND_MS });
    expect(stopped).toEqual({ finished: true, handedBack: 0 });
  });
});
