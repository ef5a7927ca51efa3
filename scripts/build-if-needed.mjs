// Builds Parley with `next build` unless the last build is newer than every source file.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");
export const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
/** The build folder: `.next`, or `PARLEY_BUILD_DIR` (a `.next-…` folder) for builds side by side. */
/**
 * Arguments every Parley server is started with. It keeps an idle connection open longer than the
 * clients and proxies in front of it keep theirs (60 s is common), so that it is the client that lets
 * an idle kept-alive connection go: with Node's default of 5 s, a client that reuses one just as the
 * server closes it gets ECONNRESET (the end-to-end tests did, on a request after a few seconds' pause).
 */
export const SERVER_ARGUMENTS = ["--keepAliveTimeout", "65000"];

export const buildDir = process.env.PARLEY_BUILD_DIR?.trim() || ".next";

/**
 * What a build is made of: the platform, the registry and the apps it names (`examples/`, and `apps/`
 * where a team keeps its own), so editing a workflow rebuilds on the next `npm start`.
 */
export const SOURCES = [
  "app",
  "components",
  "lib",
  "db",
  "parley.config.ts",
  "examples",
  "apps",
  "proxy.ts",
  "instrumentation.ts",
  "next.config.ts",
  "package-lock.json",
  "tsconfig.json",
  "patches",
  "scripts/dependency-patches.mjs",
];

function newestChange(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stats = statSync(full);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(full).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stats.mtimeMs);
}

/** Runs `next build` when needed; exits the process if the build fails. */
export function buildIfNeeded() {
  const buildId = path.join(root, buildDir, "BUILD_ID");
  const builtAt = existsSync(buildId) ? statSync(buildId).mtimeMs : 0;
  if (builtAt > 0 && SOURCES.every((entry) => newestChange(entry) <= builtAt)) return;
  console.log("Parley: building (about half a minute)…");
  const build = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** The old-generation heap the server gets unless NODE_OPTIONS sets one: `PARLEY_MAX_HEAP_MB`, else 192 MB. */
const DEFAULT_MAX_HEAP_MB = 192;
/** The young generation's semi-space, unless NODE_OPTIONS sets one (V8's own default here is 16 MB). */
const SEMI_SPACE_MB = 4;

/**
 * NODE_OPTIONS for the Parley server: those given, plus a cap on the old-generation heap and a
 * smaller young generation. Without the cap, V8 lets the heap grow well past what is live under load
 * (about 70 MB). With both, the answers benchmark peaked at 228 MiB resident, against 259 MiB with
 * the cap alone and V8's 16 MB semi-spaces, for the same server CPU per answer (16.8 against 16.7 ms).
 */
export function serverNodeOptions(env = process.env) {
  const given = env.NODE_OPTIONS?.trim() ?? "";
  const options = [given];
  if (!/--max-old-space-size/.test(given)) {
    const megabytes = Number(env.PARLEY_MAX_HEAP_MB?.trim() || DEFAULT_MAX_HEAP_MB);
    if (!Number.isInteger(megabytes) || megabytes < 64) {
      throw new Error(`PARLEY_MAX_HEAP_MB must be a whole number of megabytes, at least 64 (it is "${env.PARLEY_MAX_HEAP_MB}").`);
    }
    options.push(`--max-old-space-size=${megabytes}`);
  }
  if (!/--max-semi-space-size/.test(given)) options.push(`--max-semi-space-size=${SEMI_SPACE_MB}`);
  return options.join(" ").trim();
}
