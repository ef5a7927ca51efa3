#!/usr/bin/env node
// The server the end-to-end tests drive: a production build on a fresh database of its own —
// PostgreSQL (with the demo people seeded explicitly) when PARLEY_TEST_POSTGRES_URL is set, else
// the embedded database in demo mode, exactly as `npm start` runs it.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { buildIfNeeded, nextBin, root, SERVER_ARGUMENTS, serverNodeOptions } from "./build-if-needed.mjs";

const port = process.env.PARLEY_E2E_PORT ?? "3100";
const adminUrl = process.env.PARLEY_TEST_POSTGRES_URL?.trim();
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: port };
// A per-key API rate a test can reach with a burst of requests (the default is 100 a second).
env.PARLEY_API_RATE_LIMIT ??= "10";
// Metrics stay off here whatever the shell says: the caller table expects /api/metrics to be no page at all.
delete env.PARLEY_METRICS_TOKEN;
// The tests' webhook receivers listen on loopback, which a production server on PostgreSQL refuses by default.
env.PARLEY_WEBHOOK_ALLOW_PRIVATE_CALLBACKS ??= "true";
let cleanup = async () => {};

buildIfNeeded();

if (adminUrl) {
  const name = "parley_e2e";
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  env.DATABASE_URL = url.toString();
  env.AUTH_SECRET = randomBytes(33).toString("base64");
  delete env.PARLEY_DATA_DIR;
  const seed = spawnSync(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/seed-demo.ts"], { cwd: root, env, stdio: "inherit" });
  if (seed.status !== 0) process.exit(seed.status ?? 1);
  console.log(`e2e: PostgreSQL database ${name}`);
} else {
  const dataDir = path.join(root, ".test-data", `e2e-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  env.DATABASE_URL = "";
  env.PARLEY_DATA_DIR = dataDir;
  cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  console.log(`e2e: embedded database in ${dataDir}`);
}

// The server runs as `npm start` runs it.
env.NODE_OPTIONS = serverNodeOptions(env);
const server = spawn(process.execPath, [nextBin, "start", "-p", port, "-H", "127.0.0.1", ...SERVER_ARGUMENTS], { cwd: root, env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", async (code) => {
  await cleanup();
  process.exit(code ?? 0);
});
