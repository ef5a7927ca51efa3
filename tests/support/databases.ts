import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { type Database, migrateDatabase, openDatabase } from "@/db/client";
import { parleyMigrations } from "@/lib/database";

/** The databases every database test runs on: PGlite always, PostgreSQL when a server is given. */
export type DatabaseKind = "pglite" | "postgres";

/** A PostgreSQL server for tests: `PARLEY_TEST_POSTGRES_URL` (a role that may create databases). */
export const TEST_POSTGRES_URL = process.env.PARLEY_TEST_POSTGRES_URL?.trim() || undefined;

export const DATABASE_KINDS: DatabaseKind[] = TEST_POSTGRES_URL ? ["pglite", "postgres"] : ["pglite"];

/** A database of its own for one test: empty, or (by default) with every migration applied. */
export interface TestDatabase extends Database {
  /** A PostgreSQL URL for this database (PostgreSQL only), for code that opens its own connection. */
  readonly url?: string;
}

let pgliteTemplate: Promise<PGlite> | undefined;

// A fresh PGlite takes seconds to initialise here; copying a migrated template takes about one.
async function migratedPgliteCopy(): Promise<PGlite> {
  pgliteTemplate ??= (async () => {
    const template = await PGlite.create();
    await migrateDatabase(await openDatabase({ kind: "pglite", pglite: template }), parleyMigrations());
    return template;
  })();
  const template = await pgliteTemplate;
  return PGlite.create({ loadDataDir: await template.dumpDataDir("none") });
}

/** A new PostgreSQL database on the test server; returns its URL and how to drop it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_POSTGRES_URL) throw new Error("PARLEY_TEST_POSTGRES_URL is not set");
  const name = `parley_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} });
      await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      await dropper.end();
    },
  };
}

/** Opens a database of its own for a test. Close it when done (it drops itself on PostgreSQL). */
export async function createTestDatabase(kind: DatabaseKind, options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrated ?? true;
  if (kind === "pglite") {
    const pglite = migrated ? await migratedPgliteCopy() : await PGlite.create();
    return openDatabase({ kind: "pglite", pglite });
  }
  const { url, drop } = await createPostgresDatabase();
  const database = await openDatabase({ kind: "postgres", url });
  if (migrated) await migrateDatabase(database, parleyMigrations());
  return {
    ...database,
    url,
    async close() {
      await database.close();
      await drop();
    },
  };
}
