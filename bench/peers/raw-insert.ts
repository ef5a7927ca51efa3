/**
 * The floor: one single-row INSERT committed on its own (autocommit), on PostgreSQL through
 * postgres.js and on PGlite through its own `query`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";

const RAW_ROWS_DDL = "create table if not exists raw_rows (id bigserial primary key, note text not null)";
const NOTE = "one row, committed on its own";

/** A raw INSERT+COMMIT contender. */
export interface RawInsert {
  /** One INSERT, committed. */
  once(): Promise<void>;
  /** Throws unless every insert left its row. */
  verify(): Promise<number>;
  close(): Promise<void>;
}

/** On PostgreSQL: one connection, one parameterised INSERT per call. */
export async function openRawPostgres(url: string, options: { setup?: boolean } = {}): Promise<RawInsert> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  if (options.setup ?? true) await client.unsafe(RAW_ROWS_DDL);
  const [counted] = await client<{ base: number }[]>`select count(*)::int as base from raw_rows`;
  const base = counted!.base;
  let inserted = 0;
  return {
    async once() {
      await client`insert into raw_rows (note) values (${NOTE})`;
      inserted++;
    },
    async verify() {
      const [counted] = await client<{ rows: number }[]>`select count(*)::int as rows from raw_rows`;
      const rows = counted!.rows;
      if (rows - base !== inserted) throw new Error(`raw PostgreSQL: ${inserted} inserts left ${rows - base} rows`);
      return inserted;
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/** On PGlite, in memory or in a fresh temporary folder (removed on close). */
export async function openRawPglite(storage: "memory" | "file"): Promise<RawInsert> {
  const folder = storage === "file" ? mkdtempSync(path.join(tmpdir(), "parley-bench-raw-")) : undefined;
  const pglite = await PGlite.create(folder);
  await pglite.exec(RAW_ROWS_DDL);
  let inserted = 0;
  return {
    async once() {
      await pglite.query("insert into raw_rows (note) values ($1)", [NOTE]);
      inserted++;
    },
    async verify() {
      const { rows } = await pglite.query<{ rows: number }>("select count(*)::int as rows from raw_rows");
      if (rows[0]?.rows !== inserted) throw new Error(`raw PGlite: ${inserted} inserts left ${rows[0]?.rows} rows`);
      return inserted;
    },
    async close() {
      await pglite.close();
      if (folder) rmSync(folder, { recursive: true, force: true });
    },
  };
}
