import { afterEach, describe, expect, it } from "vitest";
import { createOutboxDrainer } from "@/lib/notifications/outbox";
import { askCallbackTarget } from "@/lib/asks/ask-webhooks";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { startReceiver } from "./ask-events-support";

describe.each(DATABASE_KINDS)("private callbacks refused, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  function drainer(fixture: AskFixture, resolve?: (hostname: string) => Promise<string[]>) {
    const { db } = fixture.database;
    return createOutboxDrainer({ db, targets: [askCallbackTarget({ db, privateCallbacks: "refuse", maxAttempts: 1, ...(resolve ? { resolve } : {}) })], now: () => new Date(fixture.clock.now) });
  }

  it("a callback to a loopback address is not sent, and fails for good naming the address", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver();
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: receiver.url });
    expect(await drainer(fixture).drainOnce()).toBe(1);
    expect(receiver.received).toHaveLength(0);
    const [row] = await fixture.outboxOf(ask.id);
    expect(row).toMatchObject({ status: "failed", deliveries: 1, report: { notifier: "callback", status: "failed", retryable: false } });
    expect(row!.report!.attempts[0]!.error).toContain("private address (127.0.0.1: loopback)");
  });

  it("a host name that resolves to a private address is not sent either", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: "https://metadata.example.test/latest" });
    expect(await drainer(fixture, async () => ["8.8.8.8", "169.254.169.254"]).drainOnce()).toBe(1);
    const [row] = await fixture.outboxOf(ask.id);
    expect(row).toMatchObject({ status: "failed", report: { retryable: false } });
    expect(row!.report!.attempts[0]!.error).toContain("169.254.169.254");
  });
});
