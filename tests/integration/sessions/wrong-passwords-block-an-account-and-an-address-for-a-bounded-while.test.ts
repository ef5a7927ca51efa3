import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, targetFromEnvironment } from "@/db/client";
import { migrateParley } from "@/lib/database";
import { recordFailedSignIn, recordSuccessfulSignIn, signInBlock, tooManyAttemptsMessage } from "@/lib/auth/sign-in-throttle";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

const MINUTE = 60_000;

describe.each(DATABASE_KINDS)("the sign-in throttle (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  const sam = { email: "Sam@Parley.test", address: "203.0.113.7" };

  it("blocks an account for a minute at its fifth wrong password, refuses even the right one meanwhile, and lets it in after", async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    const start = new Date();
    for (let attempt = 1; attempt <= 4; attempt++) expect(await recordFailedSignIn(db, sam, new Date(start.getTime() + attempt))).toBeNull();
    expect(await recordFailedSignIn(db, sam, start)).toMatchObject({ minutes: 1 });

    // The right password, typed at once: refused before it is looked at, in plain words.
    const blocked = await signInBlock(db, { ...sam, email: " sam@parley.test" }, new Date(start.getTime() + 1_000));
    expect(blocked).toMatchObject({ minutes: 1 });
    expect(tooManyAttemptsMessage(blocked!.minutes)).toBe("Too many attempts — try again in 1 minute.");

    const later = new Date(start.getTime() + MINUTE + 1);
    expect(await signInBlock(db, sam, later)).toBeNull();
    await recordSuccessfulSignIn(db, sam);
    // Counting starts again: four more wrong passwords block nothing.
    for (let attempt = 1; attempt <= 4; attempt++) expect(await recordFailedSignIn(db, { ...sam, address: null }, later)).toBeNull();
  });

  it("doubles the wait with each further wrong password, never past 15 minutes", async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    let now = Date.now();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 12; attempt++) {
      const block = await recordFailedSignIn(db, { email: sam.email, address: null }, new Date(now));
      if (block) {
        waits.push(block.minutes);
        now = block.until.getTime() + 1;
      }
    }
    expect(waits).toEqual([1, 2, 4, 8, 15, 15, 15, 15]);
  });

  it("counts each account and each address apart; an address may fail more often than an account", async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    const now = new Date();
    for (let attempt = 0; attempt < 5; attempt++) await recordFailedSignIn(db, sam, now);
    expect(await signInBlock(db, sam, now)).not.toBeNull();
    // Another account from the same address, and the same account's neighbour from elsewhere, are not blocked.
    expect(await signInBlock(db, { email: "priya@parley.test", address: sam.address }, now)).toBeNull();
    expect(await signInBlock(db, { email: "lee@parley.test", address: "198.51.100.4" }, now)).toBeNull();

    // Guessing at many accounts from one address: the address is blocked at its 20th wrong password.
    for (let account = 0; account < 14; account++) expect(await recordFailedSignIn(db, { email: `guess-${account}@parley.test`, address: sam.address }, now)).toBeNull();
    expect(await recordFailedSignIn(db, { email: "guess-last@parley.test", address: sam.address }, now)).toMatchObject({ minutes: 1 });
    expect(await signInBlock(db, { email: "priya@parley.test", address: sam.address }, now)).not.toBeNull();
    expect(await signInBlock(db, { email: "priya@parley.test", address: "198.51.100.4" }, now)).toBeNull();
  });

  it("never counts loopback as an address: a proxy on the same machine is everyone at once", async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    const now = new Date();
    for (let account = 0; account < 30; account++) await recordFailedSignIn(db, { email: `guess-${account}@parley.test`, address: "127.0.0.1" }, now);
    expect(await signInBlock(db, { email: "priya@parley.test", address: "127.0.0.1" }, now)).toBeNull();
  });
});

describe("the sign-in throttle across a restart", () => {
  let folder: string | undefined;
  afterEach(() => folder && rmSync(folder, { recursive: true, force: true }));

  it("still blocks an account after the server restarts on the same database", async () => {
    folder = mkdtempSync(path.join(tmpdir(), "parley-throttle-"));
    const target = targetFromEnvironment({ PARLEY_DATA_DIR: folder });
    const before = await openDatabase(target);
    await migrateParley(before);
    for (let attempt = 0; attempt < 5; attempt++) await recordFailedSignIn(before.db, { email: "sam@parley.test", address: null });
    await before.close();

    const after = await openDatabase(target);
    try {
      expect(await signInBlock(after.db, { email: "sam@parley.test", address: null })).toMatchObject({ minutes: 1 });
    } finally {
      await after.close();
    }
  });
});
