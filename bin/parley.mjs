#!/usr/bin/env node
// The `parley` command: runs the TypeScript entry through tsx, from the project root (where the
// migrations and tsconfig's paths are); files named on the command line are read from where it was run.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "parley.ts"), ...process.argv.slice(2)], {
  cwd: root,
  env: { ...process.env, PARLEY_INVOKED_FROM: process.cwd() },
  stdio: "inherit",
});
process.exit(result.status ?? 1);
