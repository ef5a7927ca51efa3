import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, RETRY_DELAY_MS, startReceiver } from "./ask-events-support";

describe.each(DATABASE_KINDS)("a callback that keeps failing, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  it("is given up after the last delivery allowed, failed with its last report", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver(() => ({ status: 503 }));
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?", callback_url: receiver.url });
    await fixture.service.cancel(fixture.key, ask.id);
    const drainer = askEventDrainer(fixture, { maxDeliveries: 3 });
    for (let delivery = 0; delivery < 3; delivery++) {
      expect(await drainer.drainOnce()).toBe(1);
      fixture.advance(RETRY_DELAY_MS * 2 ** delivery);
    }
    fixture.advance(24 * 60 * 60_000);
    expect(await drainer.drainOnce()).toBe(0);
    expect(receiver.received).toHaveLength(3);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([
      { status: "failed", deliveries: 3, report: { notifier: "callback", status: "failed", retryable: true, attempts: [{ outcome: "rejected", statusCode: 503 }] } },
    ]);
  });

  it("with a refusal that will not change (a 4xx) is given up at once", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver(() => ({ status: 410 }));
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?", callback_url: receiver.url });
    await fixture.service.cancel(fixture.key, ask.id);
    expect(await askEventDrainer(fixture).drainOnce()).toBe(1);
    fixture.advance(24 * 60 * 60_000);
    expect(await askEventDrainer(fixture).drainOnce()).toBe(0);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ status: "failed", deliveries: 1, report: { status: "failed", retryable: false, attempts: [{ statusCode: 410 }] } }]);
  });
});
