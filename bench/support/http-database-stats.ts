import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";

/** One normalised statement's share of the measured stretch (pg_stat_statements). */
export interface StatementTotals {
  query: string;
  calls: number;
  totalMs: number;
}

/** What the database did over the measured stretch. */
export interface DatabaseActivity {
  /** Statements other than BEGIN/COMMIT/ROLLBACK (null without pg_stat_statements). */
  statements: number | null;
  transactionControl: number | null;
  /** Transactions committed (pg_stat_database.xact_commit), read-only ones included. */
  commits: number;
  rollbacks: number;
  /** Transaction ids assigned (write transactions, subtransactions included), on the whole server. */
  writeTransactions: number;
  /** WAL flushes (fsyncs, the WAL writer's included; pg_stat_wal.wal_sync), on the whole server. */
  walSyncs: number;
  /** Statements by normalised text, most time first. */
  byQuery: StatementTotals[];
}

const TRANSACTION_CONTROL = /^\s*(begin|start transaction|commit|end|rollback|savepoint|release)\b/i;
// Backends flush their statistics when idle, at most once a second (PostgreSQL 15).
const STATS_FLUSH_MS = 1_200;

/** Reads pg_stat_database (and pg_stat_statements when the server preloads it) for one database. */
export async function openDatabaseStats(serverUrl: string, database: string) {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const [preload] = await sql<{ libraries: string }[]>`select current_setting('shared_preload_libraries') as libraries`;
  const statementsAvailable = preload!.libraries.split(",").some((name) => name.trim() === "pg_stat_statements");
  if (statementsAvailable) await sql`create extension if not exists pg_stat_statements`;
  const counters = async () => {
    const [row] = await sql<{ commits: string; rollbacks: string; xid: string; syncs: string }[]>`
      select d.xact_commit::text as commits, d.xact_rollback::text as rollbacks,
        pg_snapshot_xmax(pg_current_snapshot())::text as xid, w.wal_sync::text as syncs
      from pg_stat_database d, pg_stat_wal w where d.datname = ${database}`;
    return { commits: Number(row?.commits ?? 0), rollbacks: Number(row?.rollbacks ?? 0), xid: Number(row?.xid ?? 0), syncs: Number(row?.syncs ?? 0) };
  };
  let before = { commits: 0, rollbacks: 0, xid: 0, syncs: 0 };
  return {
    statementsAvailable,
    /** Starts counting from now. */
    async reset(): Promise<void> {
      await sleep(STATS_FLUSH_MS);
      before = await counters();
      if (statementsAvailable) await sql`select pg_stat_statements_reset()`;
    },
    /** What was counted since {@link reset}. */
    async read(): Promise<DatabaseActivity> {
      await sleep(STATS_FLUSH_MS);
      const after = await counters();
      const byQuery = statementsAvailable
        ? (
            await sql<{ query: string; calls: string; total_ms: number }[]>`
              select s.query, s.calls::text, s.total_exec_time as total_ms
              from pg_stat_statements s join pg_database d on d.oid = s.dbid
              where d.datname = ${database} order by s.total_exec_time desc`
          ).map((row) => ({ query: row.query, calls: Number(row.calls), totalMs: Number(row.total_ms) }))
        : [];
      const control = byQuery.filter((row) => TRANSACTION_CONTROL.test(row.query));
      const others = byQuery.filter((row) => !TRANSACTION_CONTROL.test(row.query));
      const calls = (rows: StatementTotals[]) => rows.reduce((sum, row) => sum + row.calls, 0);
      return {
        statements: statementsAvailable ? calls(others) : null,
        transactionControl: statementsAvailable ? calls(control) : null,
        commits: after.commits - before.commits,
        rollbacks: after.rollbacks - before.rollbacks,
        writeTransactions: after.xid - before.xid,
        walSyncs: after.syncs - before.syncs,
        byQuery: others,
      };
    },
    close: () => sql.end({ timeout: 5 }),
  };
}
