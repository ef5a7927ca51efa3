#!/usr/bin/env node
// `npm start`: build if the sources changed since the last build, then serve Parley.
import { spawn } from "node:child_process";
import { buildIfNeeded, nextBin, root, SERVER_ARGUMENTS, serverNodeOptions } from "./build-if-needed.mjs";
import { describeMissingDependencyPatches, missingDependencyPatches } from "./dependency-patches.mjs";
import { listenAddress } from "./listen-address.mjs";

// Before building: the server itself checks this too (lib/startup.ts), but only after a build.
const unpatched = describeMissingDependencyPatches(missingDependencyPatches(root));
if (unpatched) {
  console.error(`Parley could not start: ${unpatched}`);
  process.exit(1);
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
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_OPTIONS: serverNodeOptions() },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
