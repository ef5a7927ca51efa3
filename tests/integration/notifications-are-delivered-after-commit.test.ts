import { afterEach, describe, expect, it } from "vitest";
import { listen, notify } from "@/db/notifications";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../support/databases";

async function eventually(check: () => void, timeoutMs = 5_000) {
  const started = Date.now();
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

describe.each(DATABASE_KINDS)("notifications on %s", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("reach every listener on the channel", async () => {
    database = await createTestDatabase(kind);
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = await listen(database, "parley_test", (payload) => first.push(payload));
    const stopSecond = await listen(database, "parley_test", (payload) => second.push(payload));
    await notify(database.db, "parley_test", '{"kind":"hello"}');
    await eventually(() => {
      expect(first).toEqual(['{"kind":"hello"}']);
      expect(second).toEqual(['{"kind":"hello"}']);
    });
    await stopFirst();
    await stopSecond();
  });

  it("sent inside a transaction arrive only when it commits", async () => {
    database = await createTestDatabase(kind);
    const received: string[] = [];
    const stop = await listen(database, "parley_test", (payload) => received.push(payload));
    await database.db
      .transaction(async (tx) => {
        await notify(tx, "parley_test", "rolled back");
        throw new Error("roll back");
      })
      .catch(() => {});
    await database.db.transaction(async (tx) => {
      await notify(tx, "parley_test", "committed");
    });
    await eventually(() => expect(received).toEqual(["committed"]));
    await stop();
  });

  it("stop arriving once the listener stops", async () => {
    database = await createTestDatabase(kind);
    const received: string[] = [];
    const stop = await listen(database, "parley_test", (payload) => received.push(payload));
    await notify(database.db, "parley_test", "one");
    await eventually(() => expect(received).toEqual(["one"]));
    await stop();
    await notify(database.db, "parley_test", "two");
    const marker: string[] = [];
    const stopMarker = await listen(database, "parley_test", (payload) => marker.push(payload));
    await notify(database.db, "parley_test", "three");
    await eventually(() => expect(marker).toEqual(["three"]));
    expect(received).toEqual(["one"]);
    await stopMarker();
  });

  it("refuse a channel name that is not a plain identifier", async () => {
    database = await createTestDatabase(kind);
    await expect(notify(database.db, "x; drop table users", "")).rejects.toThrow(/invalid notification channel/);
  });
});
