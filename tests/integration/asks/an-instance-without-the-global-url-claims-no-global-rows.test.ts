import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, startReceiver } from "./ask-events-support";

describe.each(DATABASE_KINDS)("instances sharing one outbox, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    await fixture?.close();
    fixture = undefined;
  });

  it("an instance without PARLEY_WEBHOOK_URL delivers callbacks and leaves the global receiver's rows to one that has it", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: true } });
    const callback = await startReceiver();
    const global = await startReceiver();
    receivers.push(callback, global);
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: callback.url });

    const without = askEventDrainer(fixture);
    expect(await without.drainOnce()).toBe(1);
    expect(await without.drainOnce()).toBe(0);
    expect(callback.received).toHaveLength(1);
    // Not claimed, so not failed for want of a URL: still queued, never tried.
    expect(await fixture.outboxOf(ask.id)).toMatchObject([
      { notifier: "callback", status: "delivered" },
      { notifier: "webhook", status: "queued", deliveries: 0, report: null },
    ]);

    expect(await askEventDrainer(fixture, { globalUrl: global.url }).drainOnce()).toBe(1);
    expect(global.received).toHaveLength(1);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([
      { notifier: "callback", status: "delivered" },
      { notifier: "webhook", status: "delivered", deliveries: 1 },
    ]);
  });
});
