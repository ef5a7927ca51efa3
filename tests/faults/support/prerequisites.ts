import { existsSync, readdirSync } from "node:fs";
import path from "node:path";

/** The project root: every fault test runs its processes from there. */
export const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");

/**
 * The production build the fault suite serves, apart from the end-to-end tests' and the benchmarks':
 * `.next-faults`, or `PARLEY_FAULT_BUILD_DIR` for a checkout whose suite runs beside another's.
 */
export const FAULT_BUILD_DIR = process.env.PARLEY_FAULT_BUILD_DIR?.trim() || ".next-faults";

/**
 * The PostgreSQL server the fault suite runs on: `PARLEY_TEST_POSTGRES_URL` (a role that may create
 * databases). Every fault needs a real server — a killed process, a restarted database, two instances
 * sharing work — so without one the suite fails here and says how to get one.
 */
export function adminPostgresUrl(): string {
  const url = process.env.PARLEY_TEST_POSTGRES_URL?.trim();
  if (!url) {
    throw new Error(
      "The fault suite needs PostgreSQL: set PARLEY_TEST_POSTGRES_URL to a server whose role may create databases, e.g.\n" +
        "  PARLEY_TEST_POSTGRES_URL=$(scripts/test-postgres.sh start) npm run test:faults",
    );
  }
  return url;
}

/** Debian's PostgreSQL programs (initdb, pg_ctl), newest version first; the restart test runs a cluster of its own. */
export function postgresBinDirectory(): string {
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base) ? readdirSync(base).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.map((version) => path.join(base, version, "bin")).find((dir) => existsSync(path.join(dir, "pg_ctl")));
  if (!found) throw new Error("PostgreSQL's programs (pg_ctl, initdb) are not installed: apt-get install postgresql");
  return found;
}
