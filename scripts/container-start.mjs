#!/usr/bin/env node
// The container image's command (Dockerfile): serve Parley's standalone build (server.js, in the
// folder above this one in the image) the way `npm start` serves `next start` (scripts/start.mjs):
// with the same heap settings (serverNodeOptions: PARLEY_MAX_HEAP_MB, or NODE_OPTIONS), the same idle
// keep-alive (SERVER_ARGUMENTS' --keepAliveTimeout, which server.js takes as KEEP_ALIVE_TIMEOUT), and
// SIGTERM and SIGINT left to Parley (NEXT_MANUAL_SIG_HANDLE), which answers what it holds before it
// exits (lib/server/shutdown.ts). The signals `docker stop` sends are passed on; its exit code is ours.
import { spawn } from "node:child_process";
import path from "node:path";
import { SERVER_ARGUMENTS, serverNodeOptions } from "./build-if-needed.mjs";

const serverJs = path.resolve(import.meta.dirname, "..", "server.js");
const keepAlive = SERVER_ARGUMENTS[SERVER_ARGUMENTS.indexOf("--keepAliveTimeout") + 1];

let nodeOptions;
try {
  nodeOptions = serverNodeOptions();
} catch (error) {
  console.error(`Parley could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const server = spawn(process.execPath, [serverJs], {
  cwd: path.dirname(serverJs),
  stdio: "inherit",
  env: {
    ...process.env,
    // Every interface of the container: its port is published, or reached over the compose network.
    HOSTNAME: process.env.HOSTNAME?.trim() || "0.0.0.0",
    KEEP_ALIVE_TIMEOUT: process.env.KEEP_ALIVE_TIMEOUT?.trim() || keepAlive,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_MANUAL_SIG_HANDLE: "true",
    NODE_OPTIONS: nodeOptions,
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
