import { chmodSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { lockDataFolder } from "./data-folder-lock";
import * as schema from "./schema";

export type Schema = typeof schema;

/**
 * The one database type the rest of the code sees. PGlite's and postgres.js's drizzle types differ
 * only in the raw result shape of `execute`; this cast (made once, here) hides that, and
 * {@link queryRows} smooths over the difference for raw SQL.
 */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** An open database: the drizzle handle plus what only a driver can do. */
export interface Database {
  readonly db: Db;
  readonly kind: "pglite" | "postgres";
  /** The embedded database, when this is PGlite. */
  readonly pglite?: PGlite;
  /** The postgres.js client, when this is PostgreSQL. */
  readonly postgres?: postgres.Sql;
  /** The connection URL, when this is PostgreSQL. */
  readonly url?: string;
  close(): Promise<void>;
}

/** Where to find a database: a PostgreSQL URL, or a PGlite data folder (in memory when omitted). */
export type DatabaseTarget =
  | {
      kind: "postgres";
      url: string;
      maxConnections?: number;
      /** Names this pool in the process's database-pool figures ({@link databasePools}): `requests` unless told. */
      pool?: string;
    }
  | {
      kind: "pglite";
      /** PGlite's folder; in memory when omitted. */
      dataDir?: string;
      /** The data folder `dataDir` sits in (`PARLEY_DATA_DIR`): kept private (0700) with it. */
      folder?: string;
      pglite?: PGlite;
    };

/** Committed migrations, read at run time: every entry point (server, CLI, tests) runs from the project root. */
export const MIGRATIONS_FOLDER = path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "migrations");

/** Opens a database without migrating it. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === "postgres") {
    const max = target.maxConnections ?? 10;
    const use: PoolUse = { name: target.pool ?? "requests", size: max, busy: 0 };
    const client = postgres(target.url, {
      max,
      onnotice: () => {},
      // After a connection is lost (a database restart), try again soon and often: postgres.js's
      // default waits up to 20 s between tries, and every request waits with it.
      backoff: (attempt: number) => Math.min(0.05 * 2 ** attempt, 1),
      // Parley's statements are short index walks and small aggregates: JIT compilation, which
      // PostgreSQL starts by estimated cost, added 50–70 ms to SLA statements that run in 60 ms.
      connection: { jit: "off" },
    });
    const pools = openPools();
    pools.add(use);
    return {
      db: drizzlePostgres({ client: preparingEverything(client, use), schema }) as unknown as Db,
      kind: "postgres",
      postgres: client,
      url: target.url,
      close: () => {
        pools.delete(use);
        return client.end({ timeout: 5 });
      },
    };
  }
  if (target.pglite || !target.dataDir) {
    const owned = target.pglite ?? (await PGlite.create());
    return { db: drizzlePglite({ client: owned, schema }) as unknown as Db, kind: "pglite", pglite: owned, close: () => owned.close() };
  }
  return openDataFolder(target.dataDir, target.folder);
}

/**
 * The embedded database in a folder: locked to this process first (two processes on one folder lose
 * each other's writes and can leave it unreadable), and private to its owner — the folders 0700, the
 * files 0600. PGlite writes its initial files world-writable (0666) whatever the umask, so they are
 * made private after it opens; the files PostgreSQL makes later are 0600 by its own choice.
 */
async function openDataFolder(dataDir: string, folder: string | undefined): Promise<Database> {
  // PGlite does not create parent folders itself.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (folder) chmodSync(folder, 0o700);
  const lock = lockDataFolder(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dataDir);
    makePrivate(dataDir);
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    db: drizzlePglite({ client: pglite, schema }) as unknown as Db,
    kind: "pglite",
    pglite,
    async close() {
      try {
        await pglite.close();
        makePrivate(dataDir);
      } finally {
        lock.release();
      }
    },
  };
}

/** Folders 0700 and files 0600, all the way down. */
function makePrivate(directory: string): void {
  chmodSync(directory, 0o700);
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const entryPath = path.join(directory, entry.name);
    if (entry.isDirectory()) makePrivate(entryPath);
    else if (entry.isFile()) chmodSync(entryPath, 0o600);
  }
}

// Any fixed number: it only has to be the same in every Parley process sharing one server.
const MIGRATION_LOCK = 727_001;

/** A folder of migrations and the table that records which of them were applied. */
export interface MigrationSet {
  /** drizzle-kit's output: SQL files and `meta/_journal.json`. */
  folder: string;
  /**
   * Where they are recorded (in the `drizzle` schema). The platform's use drizzle's default table;
   * each app's have a table of their own, so an app's numbering never collides with the platform's.
   */
  table?: string;
}

/**
 * Applies the migrations of each set, in order, that are not yet applied; applying again is a no-op.
 * On PostgreSQL an advisory lock keeps two instances starting together from migrating at once.
 * The default is the platform's own committed migrations; tests pass an older folder to upgrade from.
 */
export async function migrateDatabase(database: Database, sets: string | readonly MigrationSet[] = MIGRATIONS_FOLDER): Promise<void> {
  const configs = (typeof sets === "string" ? [{ folder: sets }] : sets).map((set) => ({
    migrationsFolder: set.folder,
    ...(set.table ? { migrationsTable: set.table, migrationsSchema: "drizzle" } : {}),
  }));
  if (database.pglite) {
    for (const config of configs) await migratePglite(drizzlePglite({ client: database.pglite }), config);
    return;
  }
  // One connection of its own, so that the lock and the migration are on the same session.
  const client = postgres(database.url!, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    for (const config of configs) await migratePostgres(drizzlePostgres({ client }), config);
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** What {@link queryRows} reaches inside drizzle's postgres.js session (or transaction): its client. */
/**
 * The postgres.js client as drizzle is given it: every statement prepared, in transactions too.
 * drizzle asks for a prepared statement only when a query is given a name, so otherwise PostgreSQL
 * parses and plans each statement again on every call — for the runtime's CTEs planning costs several
 * times what running does (1.8 ms against 0.2 ms for a job claim). postgres.js keeps one prepared
 * statement per distinct text on each connection (its own default for queries written with it).
 */
function preparingEverything(client: postgres.Sql, use: PoolUse): postgres.Sql {
  const wrap = <T extends postgres.Sql | postgres.TransactionSql>(sql: T, inTransaction: boolean): T =>
    new Proxy(sql, {
      get(target, property, receiver) {
        if (property === "unsafe") {
          return (query: string, parameters?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) => {
            const pending = target.unsafe(query, parameters, { ...options, prepare: true });
            // A statement of its own holds (or waits for) a connection until it ends; one in a transaction uses the transaction's.
            return inTransaction ? pending : holding(use, pending);
          };
        }
        if (property === "begin") {
          return (...args: unknown[]) => {
            const callback = args.at(-1) as (transaction: postgres.TransactionSql) => unknown;
            // A transaction starts at once (postgres.js's begin is eager) and holds its connection until it ends.
            use.busy += 1;
            const begun = (target as postgres.Sql).begin(...(args.slice(0, -1) as [string]), (transaction) => callback(wrap(transaction, true)));
            const ended = () => void (use.busy -= 1);
            begun.then(ended, ended);
            return begun;
          };
        }
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
  return wrap(client, false);
}

/**
 * One pool of PostgreSQL connections of this process: how many it may open, and how many statements
 * and transactions hold one of them or wait for one now — above `size`, work queues for a connection.
 */
export interface PoolUse {
  readonly name: string;
  readonly size: number;
  busy: number;
}

/**
 * Counts a statement as busy on the pool from when it runs until it settles. postgres.js runs a query
 * only once something awaits it (its `then`), so the count starts there, and the query is handed back
 * as it was (drizzle calls `.values()` on it).
 */
function holding<T extends PromiseLike<unknown>>(use: PoolUse, pending: T): T {
  const then = pending.then.bind(pending);
  let counted = false;
  (pending as { then: unknown }).then = (resolve?: (value: unknown) => unknown, reject?: (reason: unknown) => unknown) => {
    if (!counted) {
      counted = true;
      use.busy += 1;
      const done = () => void (use.busy -= 1);
      then(done, done);
    }
    return then(resolve, reject);
  };
  return pending;
}

const POOLS_KEY = Symbol.for("parley.database-pools");
type GlobalWithPools = typeof globalThis & { [POOLS_KEY]?: Set<PoolUse> };

function openPools(): Set<PoolUse> {
  const store = globalThis as GlobalWithPools;
  return (store[POOLS_KEY] ??= new Set());
}

/** This process's open PostgreSQL pools, as they are now (none on the embedded database). */
export function databasePools(): { name: string; size: number; busy: number }[] {
  return [...openPools()].map(({ name, size, busy }) => ({ name, size, busy }));
}

/** A timestamp from a raw row: postgres.js hands back a Date, PGlite may hand back its text. */
export function toDate(value: Date | string): Date;
export function toDate(value: Date | string | null): Date | null;
export function toDate(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

/** Runs raw SQL and returns its rows, whichever driver is underneath. */
export async function queryRows<Row>(db: Db, query: ReturnType<typeof sql>): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as Row[] | { rows: Row[] };
  return Array.isArray(result) ? result : result.rows;
}

type Environment = Record<string, string | undefined>;

/** The target this process uses: `DATABASE_URL` if set, else PGlite in `PARLEY_DATA_DIR` (default `.data`). */
export function targetFromEnvironment(env: Environment = process.env): DatabaseTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) return { kind: "postgres", url };
  const folder = path.resolve(/*turbopackIgnore: true*/ env.PARLEY_DATA_DIR?.trim() || ".data");
  return { kind: "pglite", dataDir: path.join(folder, "pglite"), folder };
}

/**
 * Whether `error` is the database refusing a value it cannot store — SQLSTATE class 22, "data
 * exception": a number out of its column's range, a date out of range, text it cannot read as the
 * column's type. Looked for through the causes drizzle wraps the driver's error in.
 */
export function isDataException(error: unknown): boolean {
  return /^22[0-9A-Z]{3}$/.test(sqlStateOf(error) ?? "");
}

/** Whether `error` is a unique index refusing a second row with the same key (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === "23505";
}

/** The SQLSTATE of a database error, looked for through the causes drizzle wraps the driver's error in. */
function sqlStateOf(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}
