import { afterEach, describe, expect, it } from "vitest";
import { checkReadiness } from "@/lib/health";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

const running = { running: () => true };

describe.each(DATABASE_KINDS)("readiness (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close().catch(() => {});
    database = undefined;
  });

  it("is ready when the database answers, its migrations are applied and the worker runs", async () => {
    database = await createTestDatabase(kind);
    const opened = database;
    expect(await checkReadiness({ database: async () => opened, worker: async () => running })).toEqual({
      ready: true,
      checks: { database: "reachable", migrations: "applied", worker: "running" },
    });
  });

  it("is not ready when the database no longer answers", async () => {
    database = await createTestDatabase(kind);
    const opened = database;
    await opened.close();
    const readiness = await checkReadiness({ database: async () => opened, worker: async () => running }, { timeoutMs: 1_000 });
    expect(readiness).toEqual({ ready: false, checks: { database: "unreachable", migrations: "applied", worker: "running" } });
  });
});

describe("readiness", () => {
  it("is not ready while the database cannot be opened and migrated, whether that fails or hangs", async () => {
    for (const database of [() => Promise.reject(new Error("connection refused")), () => new Promise<never>(() => {})]) {
      const readiness = await checkReadiness({ database, worker: async () => running }, { timeoutMs: 50 });
      expect(readiness).toEqual({ ready: false, checks: { database: "unreachable", migrations: "not applied", worker: "running" } });
    }
  });

  it("is not ready when the worker has stopped", async () => {
    const database = await createTestDatabase("pglite");
    try {
      const readiness = await checkReadiness({ database: async () => database, worker: async () => ({ running: () => false }) });
      expect(readiness).toEqual({ ready: false, checks: { database: "reachable", migrations: "applied", worker: "not running" } });
    } finally {
      await database.close();
    }
  });
});

describe("readiness of a process told to run no worker (PARLEY_WORKER=off)", () => {
  it("is ready with its worker off, and not once it is stopping", async () => {
    const database = await createTestDatabase("pglite");
    try {
      const worker = { off: true, running: () => false };
      expect(await checkReadiness({ database: async () => database, worker: async () => worker })).toEqual({
        ready: true,
        checks: { database: "reachable", migrations: "applied", worker: "off" },
      });
      worker.off = false;
      expect((await checkReadiness({ database: async () => database, worker: async () => worker })).ready).toBe(false);
    } finally {
      await database.close();
    }
  });
});
