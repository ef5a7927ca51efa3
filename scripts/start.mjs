#!/usr/bin/env node
// `npm start`: build if the sources changed since the last build, then serve Parley.
import { spawn } from "node:child_process";
import { buildIfNeeded, nextBin, root, SERVER_ARGUMENTS, serverNodeOptions } from "./build-if-needed.mjs";
import path from "node:path";
import { DataFolderLockedError, liveLockHolder } from "./data-folder-lock.mjs";
import { describeMissingDependencyPatches, missingDependencyPatches } from "./dependency-patches.mjs";
import { listenAddress } from "./listen-address.mjs";

// Before building: the server itself checks this too (lib/startup.ts), but only after a build.
const unpatched = describeMissingDependencyPatches(missingDependencyPatches(root));
if (unpatched) {
  console.error(`Parley could not start: ${unpatched}`);
  process.exit(1);
}
// Another server on this embedded data folder: refused before building or serving. The server takes
// the lock itself as it opens the folder (db/client.ts), which also settles two starts at once.
if (!process.env.DATABASE_URL?.trim()) {
  const dataDir = path.join(path.resolve(root, process.env.PARLEY_DATA_DIR?.trim() || ".data"), "pglite");
  const holder = liveLockHolder(dataDir);
  if (holder) {
    console.error(`Parley could not start: ${new DataFolderLockedError(dataDir, holder).message}`);
    process.exit(1);
  }
}
buildIfNeeded();
const port = process.env.PORT ?? "3000";
const given = process.argv.slice(2);
// Demo mode shows passwords on the sign-in page: loopback only unless told otherwise (scripts/listen-address.mjs).
const listen = listenAddress(process.env, given);
if (listen.message) console.log(listen.message);
const server = spawn(process.execPath, [nextBin, "start", "-p", port, ...listen.args, ...SERVER_ARGUMENTS, ...given], {
  cwd: root,
  stdio: "inherit",
  // NEXT_MANUAL_SIG_HANDLE: Next.js leaves SIGTERM to Parley, which finishes its jobs in hand before exiting (lib/server/shutdown.ts).
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NEXT_MANUAL_SIG_HANDLE: "true", NODE_OPTIONS: serverNodeOptions() },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
