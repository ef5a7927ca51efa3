import { setTimeout as sleep } from "node:timers/promises";
import postgres from "postgres";
import { table } from "./results";
import { figure } from "./stats";
import type { Traffic, TrafficCounter } from "./traffic-counter";

/** One normalised statement's share of a profiled stretch (pg_stat_statements). */
export interface StatementShare {
  query: string;
  calls: number;
  rows: number;
  /** Server execution time, ms. */
  totalMs: number;
  walBytes: number;
  walFullPages: number;
}

/** What a stretch of cycles cost on the server and the client, in totals (divide by `cycles`). */
export interface ServerProfile {
  cycles: number;
  /** Statements other than transaction control (pg_stat_statements calls). */
  statements: number;
  /** BEGIN / COMMIT / ROLLBACK / SAVEPOINT / RELEASE. */
  transactionControl: number;
  /** Transactions committed in the database, read-only ones included (pg_stat_database.xact_commit); NaN unless settled. */
  commits: number;
  rollbacks: number;
  /** Transaction ids assigned: transactions (and subtransactions) that wrote. */
  writeXids: number;
  /** WAL written (pg_current_wal_insert_lsn() difference), bytes. */
  walBytes: number;
  /** Full-page images in that WAL (pg_stat_statements). */
  walFullPages: number;
  /** WAL flushes to disk (pg_stat_wal.wal_sync, the whole server): fsyncs someone waited for, or the WAL writer did; NaN unless settled. */
  walSyncs: number;
  /** Rows returned or affected (pg_stat_statements). */
  rows: number;
  /** Server execution time of the statements, ms. */
  serverMs: number;
  /** This process's CPU time (user + system), ms. */
  clientCpuMs: number;
  /** Round trips and bytes, when the contender went through a traffic counter. */
  traffic: Traffic | null;
  statementsByQuery: StatementShare[];
}

const TRANSACTION_CONTROL = /^\s*(begin|start transaction|commit|end|rollback|savepoint|release)\b/i;

// A backend flushes its statistics (pg_stat_database, pg_stat_wal) when it goes idle, but at most
// once a second; one that flushed less than a second ago flushes 10 s later (PGSTAT_IDLE_INTERVAL,
// PostgreSQL 15). pg_stat_statements and the WAL position need no waiting.
const STATS_SETTLE_MS = 11_000;

/** A superuser session on the benchmark server's maintenance database, for creating databases and reading statistics. */
export interface ServerProbe {
  /** Whether pg_stat_statements is loaded (bench/run.mjs starts the server with it). */
  readonly statementsAvailable: boolean;
  /** Drops and creates a database; returns its URL. */
  createDatabase(name: string): Promise<string>;
  dropDatabase(name: string): Promise<void>;
  /** `CHECKPOINT`: later writes to a page pay its full-page image once. */
  checkpoint(): Promise<void>;
  /** The current WAL insert position, as a byte count. */
  walPosition(): Promise<bigint>;
  /**
   * Profiles `run` (which performs `cycles` cycles) on database `name`, with nothing else
   * running: statement counts, commits, write transactions, WAL, server and client time, and the
   * traffic through `counter` when given. Commits and WAL flushes are read from statistics that
   * backends report late: with `settle`, the probe waits for them before and after (22 s);
   * without, they are NaN.
   */
  profile(name: string, cycles: number, run: () => Promise<void>, options?: { counter?: TrafficCounter; settle?: boolean }): Promise<ServerProfile>;
  close(): Promise<void>;
}

/** Opens a probe on the server at `serverUrl` (its maintenance database). */
export async function openServerProbe(serverUrl: string): Promise<ServerProbe> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const [preload] = await sql<{ libraries: string }[]>`select current_setting('shared_preload_libraries') as libraries`;
  const statementsAvailable = preload!.libraries.split(",").some((name) => name.trim() === "pg_stat_statements");
  if (statementsAvailable) await sql`create extension if not exists pg_stat_statements`;

  const urlOf = (name: string) => {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const walPosition = async () => {
    // The insert position, not pg_current_wal_lsn() (the write position): with asynchronous commits
    // the WAL writer writes whole pages later, so the write position moves in 8 KB steps.
    const [row] = await sql<{ lsn: string }[]>`select (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text as lsn`;
    return BigInt(row!.lsn.split(".")[0]!);
  };
  const nextXid = async () => {
    const [row] = await sql<{ xid: string }[]>`select pg_snapshot_xmax(pg_current_snapshot())::text as xid`;
    return BigInt(row!.xid);
  };
  const databaseCounters = async (name: string) => {
    const [row] = await sql<{ commits: string; rollbacks: string; syncs: string }[]>`
      select d.xact_commit::text as commits, d.xact_rollback::text as rollbacks, w.wal_sync::text as syncs
      from pg_stat_database d, pg_stat_wal w where d.datname = ${name}`;
    return { commits: Number(row?.commits ?? 0), rollbacks: Number(row?.rollbacks ?? 0), syncs: Number(row?.syncs ?? 0) };
  };

  return {
    statementsAvailable,
    async createDatabase(name) {
      await sql.unsafe(`drop database if exists "${name}" with (force)`);
      await sql.unsafe(`create database "${name}"`);
      return urlOf(name);
    },
    async dropDatabase(name) {
      await sql.unsafe(`drop database if exists "${name}" with (force)`);
    },
    async checkpoint() {
      await sql`checkpoint`;
    },
    walPosition,
    async profile(name, cycles, run, options = {}) {
      const { counter, settle = false } = options;
      if (settle) await sleep(STATS_SETTLE_MS);
      const before = await databaseCounters(name);
      if (statementsAvailable) await sql`select pg_stat_statements_reset()`;
      counter?.reset();
      const xidBefore = await nextXid();
      const walBefore = await walPosition();
      const cpuBefore = process.cpuUsage();
      await run();
      const cpu = process.cpuUsage(cpuBefore);
      const walAfter = await walPosition();
      const xidAfter = await nextXid();
      const traffic = counter?.read() ?? null;
      if (settle) await sleep(STATS_SETTLE_MS);
      const after = await databaseCounters(name);
      const statementsByQuery = statementsAvailable
        ? (
            await sql<{ query: string; calls: string; rows: string; total_ms: number; wal_bytes: string; wal_fpi: string }[]>`
              select s.query, s.calls::text, s.rows::text, s.total_exec_time as total_ms, s.wal_bytes::text, s.wal_fpi::text
              from pg_stat_statements s join pg_database d on d.oid = s.dbid
              where d.datname = ${name} order by s.calls desc, s.total_exec_time desc`
          ).map((row) => ({
            query: row.query,
            calls: Number(row.calls),
            rows: Number(row.rows),
            totalMs: Number(row.total_ms),
            walBytes: Number(row.wal_bytes),
            walFullPages: Number(row.wal_fpi),
          }))
        : [];
      const control = statementsByQuery.filter((row) => TRANSACTION_CONTROL.test(row.query));
      const others = statementsByQuery.filter((row) => !TRANSACTION_CONTROL.test(row.query));
      const sum = (rows: StatementShare[], key: keyof Omit<StatementShare, "query">) => rows.reduce((total, row) => total + row[key], 0);
      return {
        cycles,
        statements: sum(others, "calls"),
        transactionControl: sum(control, "calls"),
        commits: settle ? after.commits - before.commits : Number.NaN,
        rollbacks: settle ? after.rollbacks - before.rollbacks : Number.NaN,
        writeXids: Number(xidAfter - xidBefore),
        walBytes: Number(walAfter - walBefore),
        walFullPages: sum(statementsByQuery, "walFullPages"),
        walSyncs: settle ? after.syncs - before.syncs : Number.NaN,
        rows: sum(others, "rows"),
        serverMs: sum(statementsByQuery, "totalMs"),
        clientCpuMs: (cpu.user + cpu.system) / 1_000,
        traffic,
        statementsByQuery,
      };
    },
    close: () => sql.end({ timeout: 5 }),
  };
}

/** A collapsed markdown table of a profile's statements, per cycle (those run at least once in 20 cycles). */
export function statementDetail(label: string, profile: ServerProfile): string {
  const rows = profile.statementsByQuery
    .filter((row) => row.calls / profile.cycles >= 0.05)
    .map((row) => [
      `\`${row.query.replace(/\s+/g, " ").replace(/\|/g, "\\|").slice(0, 160)}${row.query.length > 160 ? "…" : ""}\``,
      figure(row.calls / profile.cycles),
      figure(row.rows / profile.cycles),
      figure(row.totalMs / profile.cycles),
      figure(row.walBytes / profile.cycles),
    ]);
  return [
    `<details><summary>${label}: statements per cycle (pg_stat_statements)</summary>\n`,
    table(["statement (normalised)", "calls", "rows", "server ms", "WAL bytes"], rows),
    "\n</details>",
  ].join("\n");
}
