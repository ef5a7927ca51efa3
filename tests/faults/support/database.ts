import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { type Database, openDatabase } from "@/db/client";
import { migrateParley } from "@/lib/database";
import { seedDemoUsers } from "@/lib/demo-people";

/** A database of its own for one fault test, migrated and with the demo people, on a PostgreSQL server. */
export interface FaultDatabase {
  /** Its URL, for servers and clients the test starts. */
  url: string;
  /** The test's own connection, for setting up and for checking invariants. */
  database: Database;
  /** Raw SQL on the test's connection. */
  sql: postgres.Sql;
  /** The demo people's ids by email. */
  people: Readonly<Record<string, string>>;
  /** Closes the test's connection and drops the database. */
  drop(): Promise<void>;
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Creates, migrates and seeds a database named after `label` on the server at `serverUrl`. */
export async function createFaultDatabase(serverUrl: string, label: string): Promise<FaultDatabase> {
  const name = `parley_fault_${label}_${randomBytes(3).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrl(serverUrl, name);
  const database = await openDatabase({ kind: "postgres", url, maxConnections: 8 });
  await migrateParley(database);
  await seedDemoUsers(database.db);
  const sql = database.postgres!;
  const people = Object.fromEntries((await sql<{ id: string; email: string }[]>`select id, email from users`).map((user) => [user.email, user.id]));
  return {
    url,
    database,
    sql,
    people,
    async drop() {
      await database.close().catch(() => {});
      const dropper = postgres(serverUrl, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/**
 * Every row of every table in the public schema, as JSON text per table, in a stable order: two
 * snapshots are equal exactly when nothing was written in between.
 */
export async function snapshotTables(sql: postgres.Sql): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }[]>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`;
  const snapshot: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await sql.unsafe<{ rows: string | null }[]>(
      `select coalesce(json_agg(t order by t::text), '[]')::text as rows from "${name}" t`,
    );
    snapshot[name] = row?.rows ?? "[]";
  }
  return snapshot;
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((table) => before[table] !== after[table]).sort();
}
