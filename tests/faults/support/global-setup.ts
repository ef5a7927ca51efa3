import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { adminPostgresUrl, FAULT_BUILD_DIR, postgresBinDirectory, ROOT } from "./prerequisites";

/** What a build is made from: newer than its BUILD_ID means building again. */
const SOURCES = ["app", "components", "lib", "db", "proxy.ts", "instrumentation.ts", "next.config.ts", "package-lock.json", "tsconfig.json"];

function newestChange(entry: string): number {
  const full = path.join(ROOT, entry);
  if (!existsSync(full)) return 0;
  const stats = statSync(full);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(full).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stats.mtimeMs);
}

/**
 * Before any fault test: PostgreSQL is reachable and its programs are installed (or the suite stops
 * here, saying what is missing), and the fault build (`.next-faults`) is up to date. The build skips
 * Next.js's type-check: `npm test` type-checks the whole project before this suite runs.
 */
export default async function setup() {
  const url = adminPostgresUrl();
  postgresBinDirectory();
  const probe = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await probe`select 1`;
  } catch (error) {
    throw new Error(`PARLEY_TEST_POSTGRES_URL (${url}) does not answer: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await probe.end();
  }

  const buildId = path.join(ROOT, FAULT_BUILD_DIR, "BUILD_ID");
  const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  if (builtAt > 0 && SOURCES.every((entry) => newestChange(entry) <= builtAt)) return;
  console.log(`Fault suite: building Parley into ${FAULT_BUILD_DIR} (about a minute)…`);
  const started = Date.now();
  const build = spawnSync(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PARLEY_BUILD_DIR: FAULT_BUILD_DIR, PARLEY_BUILD_SKIP_TYPECHECK: "1" },
    maxBuffer: 64 << 20,
  });
  if (build.status !== 0) throw new Error(`next build failed (exit ${build.status}):\n${build.stdout}\n${build.stderr}`);
  console.log(`Fault suite: built in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
}
