#!/usr/bin/env node
// `npm test`: every check, in order, stopping at the first that fails — type-check, lint, unit and
// integration tests (PGlite, and PostgreSQL too when PARLEY_TEST_POSTGRES_URL is set), the
// end-to-end tests in Chromium against a production build, then (on PostgreSQL) the fault suite.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const postgres = process.env.PARLEY_TEST_POSTGRES_URL?.trim();

const steps = [
  ["Type-check", bin("tsc"), ["--noEmit"]],
  ["Lint", bin("eslint"), ["--max-warnings", "0", "."]],
  ["Unit and integration tests", bin("vitest"), ["run"]],
  // The type-check above has judged every file: the production build the end-to-end tests run need not again.
  ["End-to-end tests", bin("playwright"), ["test"], { PARLEY_BUILD_SKIP_TYPECHECK: "1" }],
  // Killed servers, a restarted database, failing models, hostile requests: PostgreSQL only (a second process must share it).
  ...(postgres ? [["Fault suite", bin("vitest"), ["run", "--config", "vitest.faults.config.ts"]]] : []),
];

console.log(
  postgres
    ? "Databases: PGlite and PostgreSQL (PARLEY_TEST_POSTGRES_URL); end-to-end and the fault suite on PostgreSQL."
    : "Databases: PGlite only. Set PARLEY_TEST_POSTGRES_URL (e.g. $(scripts/test-postgres.sh start)) to run every database test on PostgreSQL too, and the fault suite.",
);

for (const [name, command, args, env = {}] of steps) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed (${seconds} s).`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${seconds} s)`);
}
