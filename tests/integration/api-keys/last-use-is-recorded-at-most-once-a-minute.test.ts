import { afterEach, describe, expect, it } from "vitest";
import { findApiKey } from "@/db/queries/api-keys";
import { authenticateApiKey, createApiKey } from "@/lib/api-keys";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("a key's last use (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is recorded on first use, then at most once a minute however busy the key is", async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    const start = new Date("2026-12-01T09:00:00.000Z");
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);
    const { key, secret } = await createApiKey(db, { kind: "agent", name: "Busy bot", by: null, now: at(-3600) });
    const lastUsed = async () => (await findApiKey(db, key.id))?.lastUsedAt?.toISOString() ?? null;
    expect(await lastUsed()).toBeNull();

    await authenticateApiKey(db, secret, at(0));
    expect(await lastUsed()).toBe(at(0).toISOString());
    for (const seconds of [1, 30, 59, 60]) {
      await authenticateApiKey(db, secret, at(seconds));
      expect(await lastUsed(), `after ${seconds}s`).toBe(at(0).toISOString());
    }
    await authenticateApiKey(db, secret, at(61));
    expect(await lastUsed()).toBe(at(61).toISOString());
    await authenticateApiKey(db, secret, at(100));
    expect(await lastUsed()).toBe(at(61).toISOString());
  });

  it("is not recorded by a wrong secret", async () => {
    database = await createTestDatabase(kind);
    const { key, secret } = await createApiKey(database.db, { kind: "agent", name: "Quiet bot", by: null });
    await authenticateApiKey(database.db, `${secret.slice(0, -2)}zz`);
    expect((await findApiKey(database.db, key.id))?.lastUsedAt).toBeNull();
  });
});
