#!/usr/bin/env node
// `npm start`: build if the sources changed since the last build, then serve Parley.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const buildId = path.join(root, ".next", "BUILD_ID");
const sources = ["app", "components", "lib", "db", "proxy.ts", "instrumentation.ts", "next.config.ts", "package-lock.json"];

function newestChange(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stats = statSync(full);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(full).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stats.mtimeMs);
}

const needsBuild = !existsSync(buildId) || sources.some((entry) => newestChange(entry) > statSync(buildId).mtimeMs);
const next = path.join(root, "node_modules", "next", "dist", "bin", "next");

if (needsBuild) {
  console.log("Parley: building (the first time takes a minute)…");
  const build = spawnSync(process.execPath, [next, "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = process.env.PORT ?? "3000";
const server = spawn(process.execPath, [next, "start", "-p", port, ...process.argv.slice(2)], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
