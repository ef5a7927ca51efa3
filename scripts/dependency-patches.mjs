// The patches in patches/ that `npm install` / `npm ci` applies to dependencies (patch-package, run as
// `postinstall`; patches/README.md says what each fixes and when to drop it), and a check that each is
// applied: the server refuses to start without them (lib/startup.ts, scripts/start.mjs).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const POSTGRES_PATCH = "patches/postgres+3.4.9.patch";
const NEXT_PATCH = "patches/next+16.4.6.patch";
const POSTGRES_FILES = ["node_modules/postgres/src/connection.js", "node_modules/postgres/cjs/src/connection.js", "node_modules/postgres/cf/src/connection.js"];
const NEXT_FILES = [
  "node_modules/next/dist/compiled/next-server/app-page.runtime.prod.js",
  "node_modules/next/dist/compiled/next-server/app-page-turbo.runtime.prod.js",
  "node_modules/next/dist/compiled/next-server/app-page-experimental.runtime.prod.js",
  "node_modules/next/dist/compiled/next-server/app-page-turbo-experimental.runtime.prod.js",
];

/** Each patch, what it fixes, and the text each file it changes holds once it is applied. */
export const DEPENDENCY_PATCHES = [
  {
    patch: POSTGRES_PATCH,
    fixes:
      "postgres.js carries a dead connection's error and pending write into its next start-up (porsager/postgres#1223) " +
      "and throws an uncaught TypeError writing to a connection that just closed (porsager/postgres#1154, #1208)",
    files: POSTGRES_FILES,
    patchedTexts: [
      `  async function closed(hadError) {\n    errorResponse = null // patched by Parley: ${POSTGRES_PATCH}\n`,
      `  function nextWrite(fn) {\n    if (!socket) { // patched by Parley: ${POSTGRES_PATCH}\n`,
    ],
  },
  {
    patch: NEXT_PATCH,
    fixes: "React's Flight server, in Next.js, keeps every finished render alive through its abort reason's stack (react#37289, vercel/next.js#92287)",
    files: NEXT_FILES,
    patchedTexts: [`cacheController.abort(/* patched by Parley: ${NEXT_PATCH} */"This render completed successfully.`],
  },
];

/**
 * The patches not applied under `root` (the folder holding node_modules): those with a file that is
 * missing or lacks its patched text. Empty when all are applied.
 * @param {string} root
 * @returns {{ patch: string, fixes: string, file: string }[]}
 */
export function missingDependencyPatches(root) {
  const missing = [];
  for (const { patch, fixes, files, patchedTexts } of DEPENDENCY_PATCHES) {
    const unpatched = files.find((file) => {
      const full = path.join(root, file);
      if (!existsSync(full)) return true;
      const text = readFileSync(full, "utf8");
      return !patchedTexts.every((patched) => text.includes(patched));
    });
    if (unpatched) missing.push({ patch, fixes, file: unpatched });
  }
  return missing;
}

/**
 * Why Parley cannot start with these patches missing: one line per patch, or null when none is.
 * @param {{ patch: string, fixes: string, file: string }[]} missing
 * @returns {string | null}
 */
export function describeMissingDependencyPatches(missing) {
  if (missing.length === 0) return null;
  return missing.map(({ patch, fixes, file }) => `the dependency patch ${patch} is not applied to ${file} (it fixes: ${fixes}). Run npm install.`).join("\n");
}
