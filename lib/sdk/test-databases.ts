import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
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

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * A migrated PGlite data folder, as a tarball, to load each test's database from. Vitest runs each
 * test file in a process of its own, and making one (a fresh PGlite, then every migration) costs 8 s
 * here, so it is made once per set of migrations and kept in the system's temporary folder; loading
 * a copy of it costs about 1 s. Two processes making it at once each write a whole file and rename it.
 */
function migratedPgliteDump(): Promise<Blob> {
  pgliteTemplate ??= (async () => {
    const file = path.join(tmpdir(), `parley-test-pglite-${PGLITE_VERSION}-${migrationsDigest()}.tar`);
    if (existsSync(file)) return new Blob([await readFile(file)]);
    const template = await PGlite.create();
    await migrateDatabase(await openDatabase({ kind: "pglite", pglite: template }), parleyMigrations());
    const dump = await template.dumpDataDir("none");
    await template.close();
    const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  })();
  return pgliteTemplate;
}

async function migratedPgliteCopy(): Promise<PGlite> {
  return PGlite.create({ loadDataDir: await migratedPgliteDump() });
}

/**
 * The schema of a database as text — tables and columns, indexes, constraints, functions, triggers,
 * types — to tell a database a test left as migrated (whatever rows it holds) from one it changed.
 */
const SCHEMA_FINGERPRINT = `
  select md5(coalesce(string_agg(item, E'\n' order by item), '')) as fingerprint from (
    select 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(column_default, '') || is_nullable as item
      from information_schema.columns where table_schema not in ('pg_catalog', 'information_schema')
    union all select 'index ' || schemaname || ' ' || indexdef from pg_indexes where schemaname not in ('pg_catalog', 'information_schema')
    union all select 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) from pg_constraint
      where connamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    union all select 'function ' || p.oid::regprocedure::text || ' ' || md5(p.prosrc) from pg_proc p
      where p.pronamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    union all select 'trigger ' || tgrelid::regclass::text || ' ' || tgname from pg_trigger where not tgisinternal
    union all select 'type ' || t.typnamespace::regnamespace::text || '.' || t.typname from pg_type t
      where t.typnamespace not in ('pg_catalog'::regnamespace, 'information_schema'::regnamespace) and t.typtype in ('e', 'd', 'c') and t.typrelid = 0
    union all select 'schema ' || nspname from pg_namespace
  ) schema_items`;

/** The migrated schema's fingerprint and what empties a database of it, read once per test process. */
let pgliteShape: Promise<{ fingerprint: string; empty: string }> | undefined;

/**
 * PGlite databases given back by tests, emptied, to be handed out again: loading a copy of the
 * migrated data folder costs about a second of CPU, emptying one a few milliseconds.
 */
const emptiedPglites: PGlite[] = [];

async function fingerprintOf(pglite: PGlite): Promise<string> {
  return (await pglite.query<{ fingerprint: string }>(SCHEMA_FINGERPRINT)).rows[0]!.fingerprint;
}

/** A migrated PGlite database with no rows: one a test gave back, else a new copy. */
async function emptyMigratedPglite(): Promise<PGlite> {
  const reused = emptiedPglites.pop();
  if (reused) return reused;
  const pglite = await migratedPgliteCopy();
  pgliteShape ??= (async () => {
    const tables = await pglite.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema', 'drizzle') order by 1`,
    );
    return { fingerprint: await fingerprintOf(pglite), empty: `truncate ${tables.rows.map((row) => row.name).join(", ")} restart identity cascade` };
  })();
  await pgliteShape;
  return pglite;
}

/**
 * Takes back a PGlite database a test is done with: emptied of its rows and of its session's state,
 * it is handed to a later test — unless the test changed its schema (or left it unusable), when it
 * is closed, as a database no later test should see.
 */
async function giveBack(pglite: PGlite): Promise<void> {
  try {
    const shape = await pgliteShape!;
    if (!pglite.closed && (await fingerprintOf(pglite)) === shape.fingerprint) {
      await pglite.exec(`${shape.empty}; reset all; unlisten *; select pg_advisory_unlock_all();`);
      emptiedPglites.push(pglite);
      return;
    }
  } catch {
    // Unusable: closed below.
  }
  if (!pglite.closed) await pglite.close().catch(() => {});
}

/**
 * The test's own handle on a PGlite database: once the test closes its database, anything of the
 * test's still holding this handle (a loop it left running) fails as on a closed database, rather
 * than reaching the next test's rows. Only calls are refused: a spy the test put on the handle can
 * still be restored after it closed (vitest restores every spy after the test's own hooks).
 */
function closableHandle(pglite: PGlite): { handle: PGlite; close: () => void } {
  let closed = false;
  const handle = new Proxy(pglite, {
    get(target, property) {
      // PGlite keeps its state in private fields, which only the instance itself can reach.
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (closed) throw new Error("This test's PGlite database is closed: the test gave it back.");
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { handle, close: () => (closed = true) };
}

/** A data folder is only loaded by the PGlite that wrote it (tests run from the project's root). */
const PGLITE_VERSION = (JSON.parse(readFileSync(path.resolve("node_modules/@electric-sql/pglite/package.json"), "utf8")) as { version: string }).version;

/** Any fixed number: it only has to be the same in every test process sharing the server. */
const TEMPLATE_LOCK = 727_002;

/** What the migrations are, as a short name: a template is only ever used for the migrations it has. */
function migrationsDigest(): string {
  const hash = createHash("sha256");
  for (const set of parleyMigrations()) {
    hash.update(`${set.folder}\0${set.table ?? ""}\0`);
    for (const file of readdirSync(set.folder, { recursive: true, encoding: "utf8" }).sort()) {
      if (!/\.(sql|json)$/.test(file)) continue;
      hash.update(`${file}\0`).update(readFileSync(path.join(set.folder, file)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

let postgresTemplate: Promise<string> | undefined;

/**
 * A migrated database on the test server to copy from: migrating a new database costs 0.45 s here,
 * copying this one 0.1 s. It is named after its migrations, made once under a lock whichever test
 * process needs it first, and kept for later runs; nothing ever connects to it but to build it.
 */
function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `parley_template_${migrationsDigest()}`;
    const admin = postgres(TEST_POSTGRES_URL!, { max: 1, onnotice: () => {} });
    try {
      await admin`select pg_advisory_lock(${TEMPLATE_LOCK})`;
      const [present] = await admin`select 1 from pg_database where datname = ${name}`;
      if (!present) {
        const building = `${name}_building`;
        await admin.unsafe(`drop database if exists "${building}" with (force)`);
        await admin.unsafe(`create database "${building}"`);
        const url = new URL(TEST_POSTGRES_URL!);
        url.pathname = `/${building}`;
        const database = await openDatabase({ kind: "postgres", url: url.toString(), maxConnections: 1 });
        try {
          await migrateDatabase(database, parleyMigrations());
        } finally {
          await database.close();
        }
        await admin.unsafe(`alter database "${building}" rename to "${name}"`);
      }
      return name;
    } finally {
      await admin.end();
    }
  })();
  return postgresTemplate;
}

/** A new PostgreSQL database on the test server (a copy of `template`, if given); returns its URL and how to drop it. */
export async function createPostgresDatabase(template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!TEST_POSTGRES_URL) throw new Error("PARLEY_TEST_POSTGRES_URL is not set");
  const name = `parley_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
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
    if (!migrated) return openDatabase({ kind: "pglite", pglite: await PGlite.create() });
    const pglite = await emptyMigratedPglite();
    const { handle, close: closeHandle } = closableHandle(pglite);
    const database = await openDatabase({ kind: "pglite", pglite: handle });
    let closing: Promise<void> | undefined;
    return {
      ...database,
      close() {
        closing ??= (async () => {
          closeHandle();
          await giveBack(pglite);
        })();
        return closing;
      },
    };
  }
  const { url, drop } = await createPostgresDatabase(migrated ? await migratedPostgresTemplate() : undefined);
  const database = await openDatabase({ kind: "postgres", url });
  return {
    ...database,
    url,
    async close() {
      await database.close();
      await drop();
    },
  };
}
