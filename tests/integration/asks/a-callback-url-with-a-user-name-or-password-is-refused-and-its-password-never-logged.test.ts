import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryRows } from "@/db/client";
import { askCallbackTarget } from "@/lib/asks/ask-webhooks";
import { loadFailedDeliveries } from "@/lib/notifications/failed-deliveries";
import { createOutboxDrainer } from "@/lib/notifications/outbox";
import { captureLog } from "@/tests/support/captured-log";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";
import { askEventDrainer, startReceiver } from "./ask-events-support";
import { httpRefusalOf } from "@/tests/support/http-refusal";

const PASSWORD = "hunter2-not-for-logs";

describe.each(DATABASE_KINDS)("a callback_url with credentials, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await receiver?.close();
    await fixture?.close();
    receiver = undefined;
    fixture = undefined;
  });

  it.each([`http://agent:${PASSWORD}@127.0.0.1:9/hooks`, `https://agent@hooks.example.test/parley`, `https://:${PASSWORD}@hooks.example.test/`])(
    "%s is refused at create time with the path, without repeating the URL, and nothing is stored",
    async (callbackUrl) => {
      fixture = await createAskFixture(kind, { askEvents: { global: false } });
      const refusal = await httpRefusalOf(fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: callbackUrl }));
      expect(refusal).toMatchObject({ code: "invalid_input", status: 400, path: "callback_url" });
      expect(refusal.message).toMatch(/user name or password/);
      expect(refusal.message).not.toContain(PASSWORD);
      const [row] = await queryRows<{ asks: number; questions: number }>(fixture.database.db, sql`select (select count(*)::int from api_asks) as asks, (select count(*)::int from asks) as questions`);
      expect(row).toEqual({ asks: 0, questions: 0 });
    },
  );

  it("one stored before the refusal is given up at its first delivery, and its password is in no log line, report or admin screen", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    receiver = await startReceiver();
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: receiver.url });
    const withCredentials = receiver.url.replace("http://", `http://agent:${PASSWORD}@`);
    await fixture.database.db.execute(sql`update api_asks set callback_url = ${withCredentials} where id = ${ask.id}`);
    const logged: string[] = [];
    for (const level of ["log", "info", "warn", "error"] as const) {
      vi.spyOn(console, level).mockImplementation((...words: unknown[]) => void logged.push(words.map(String).join(" ")));
    }
    const log = captureLog();

    expect(await askEventDrainer(fixture).drainOnce()).toBe(1);

    expect(receiver.received).toHaveLength(0);
    const rows = await fixture.outboxOf(ask.id);
    expect(rows).toMatchObject([{ status: "failed", deliveries: 1, report: { status: "failed", retryable: false } }]);
    expect(rows[0]!.report!.attempts[0]!.error).toMatch(/user name or password/);
    expect(log.text()).toMatch(/given up/);
    const failed = await loadFailedDeliveries(fixture.database.db);
    for (const text of [logged.join("\n"), log.text(), JSON.stringify(rows), JSON.stringify(failed)]) expect(text).not.toContain(PASSWORD);
  });

  it("one stored before the refusal is given up at once where private callbacks are refused, even when its host does not resolve", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Ship it?", callback_url: "https://hooks.example.test/parley" });
    await fixture.database.db.execute(sql`update api_asks set callback_url = ${`https://agent:${PASSWORD}@hooks.example.test/parley`} where id = ${ask.id}`);
    captureLog();
    const unresolvable = async (): Promise<string[]> => {
      throw new Error("getaddrinfo ENOTFOUND hooks.example.test");
    };
    const { db } = fixture.database;
    const drainer = createOutboxDrainer({ db, targets: [askCallbackTarget({ db, privateCallbacks: "refuse", resolve: unresolvable, maxAttempts: 1 })], now: () => new Date(fixture!.clock.now) });

    expect(await drainer.drainOnce()).toBe(1);

    const rows = await fixture.outboxOf(ask.id);
    expect(rows).toMatchObject([{ status: "failed", deliveries: 1, report: { status: "failed", retryable: false } }]);
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
  });
});
