import { type Database, type Db, MIGRATIONS_FOLDER, type MigrationSet, migrateDatabase, openDatabase, targetFromEnvironment } from "@/db/client";
import { getRegistry } from "@/lib/registry/configured";

/** What a Parley database is migrated with: the platform's migrations first, then each registered app's own, in registry order. */
export function parleyMigrations(): MigrationSet[] {
  return [{ folder: MIGRATIONS_FOLDER }, ...getRegistry().migrations()];
}

/** Applies {@link parleyMigrations} to `database` (what a server does on start; scripts and tests do the same). */
export async function migrateParley(database: Database): Promise<void> {
  await migrateDatabase(database, parleyMigrations());
}

const GLOBAL_KEY = Symbol.for("parley.database");
type GlobalWithDatabase = typeof globalThis & { [GLOBAL_KEY]?: Promise<Database> };

/**
 * This process's database, opened and migrated on first use and shared afterwards: the platform's
 * migrations first, then each registered app's own, in registry order. One PGlite folder has one
 * owner, so every module (and every Next.js bundle) must reach the same instance.
 */
export function getDatabase(): Promise<Database> {
  const store = globalThis as GlobalWithDatabase;
  store[GLOBAL_KEY] ??= (async () => {
    const database = await openDatabase(targetFromEnvironment());
    await migrateParley(database);
    return database;
  })().catch((error: unknown) => {
    delete store[GLOBAL_KEY];
    throw error;
  });
  return store[GLOBAL_KEY];
}

/** Shorthand for `(await getDatabase()).db`. */
export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Closes this process's database (tests, and a clean shutdown); the next {@link getDatabase} opens it again. */
export async function closeDatabase(): Promise<void> {
  const store = globalThis as GlobalWithDatabase;
  const open = store[GLOBAL_KEY];
  delete store[GLOBAL_KEY];
  if (open) await (await open).close();
}
