#!/usr/bin/env node
// `npm run bench [-- name…]`: starts a throwaway PostgreSQL on loopback (fsync on), runs the
// benchmarks (all, or the ones named) one after another, and writes bench/RESULTS.md from their
// sections — a section not run this time keeps its last recorded figures.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
/** In the order RESULTS.md lists them. */
const BENCHMARKS = ["park-answer-resume", "replay-growth", "inbox-at-scale", "answers-over-http", "answers-over-api", "http-api", "mcp", "pattern-check"];

/** A benchmark by its name, or by a part of it that names only one (`inbox` is `inbox-at-scale`). */
const resolve = (name) => (BENCHMARKS.includes(name) ? name : BENCHMARKS.filter((each) => each.includes(name)).length === 1 ? BENCHMARKS.find((each) => each.includes(name)) : undefined);
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => resolve(name) === undefined);
if (unknown.length > 0) {
  console.error(`Unknown or ambiguous benchmark ${unknown.join(", ")}; there are: ${BENCHMARKS.join(", ")}.`);
  process.exit(64);
}
const chosen = asked.length > 0 ? asked.map(resolve) : BENCHMARKS;

const env = {
  ...process.env,
  NEXT_TELEMETRY_DISABLED: "1",
  PARLEY_TEST_POSTGRES_PORT: process.env.PARLEY_BENCH_POSTGRES_PORT ?? "55435",
  PARLEY_TEST_POSTGRES_DIR: process.env.PARLEY_BENCH_POSTGRES_DIR ?? "/tmp/parley-bench-postgres",
  // pg_stat_statements lets the benchmarks count the statements a cycle runs.
  PARLEY_TEST_POSTGRES_OPTIONS: `-c shared_preload_libraries=pg_stat_statements ${process.env.PARLEY_TEST_POSTGRES_OPTIONS ?? ""}`.trim(),
};
const postgresScript = path.join(root, "scripts", "test-postgres.sh");
// A server left running by an interrupted run may lack those options: start afresh.
spawnSync(postgresScript, ["stop"], { env, stdio: "inherit" });
const started = spawnSync(postgresScript, ["start"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
if (started.status !== 0) process.exit(started.status ?? 1);
env.BENCH_POSTGRES_URL = started.stdout.trim();
const stop = () => spawnSync(postgresScript, ["stop"], { env, stdio: "inherit" });
process.on("SIGINT", () => {
  stop();
  process.exit(130);
});

let failed = false;
for (const name of chosen) {
  console.log(`\n▶ bench ${name}`);
  const result = spawnSync(path.join(root, "node_modules", ".bin", "tsx"), [path.join("bench", `${name}.bench.ts`)], { cwd: root, env, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`✖ bench ${name} failed`);
    failed = true;
  }
}
stop();

const sections = BENCHMARKS.map((name) => path.join(root, "bench", "results", `${name}.md`))
  .filter((file) => existsSync(file))
  .map((file) => readFileSync(file, "utf8").trim());
writeFileSync(
  path.join(root, "bench", "RESULTS.md"),
  `# Benchmark results\n\nWritten by \`npm run bench\` (each section by its own benchmark, with the machine it ran on and\nthe exact command; \`npm run bench -- <name>\` reruns one). Medians and p95 over many iterations;\ncontenders are interleaved round by round, and ratios are taken within one run.\n\n${sections.join("\n\n")}\n`,
);
process.exit(failed ? 1 : 0);
