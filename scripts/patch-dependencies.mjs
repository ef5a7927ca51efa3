#!/usr/bin/env node
// Runs after `npm install` / `npm ci`: fixes known bugs in installed dependencies, in place. Each fix
// names the exact text it replaces; if a dependency changed so that the text is gone (and the fix is
// not there either), this fails loudly rather than leaving the bug in silently.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");

const fixes = [
  {
    // When a connection's socket closes, postgres.js 3.4.9 leaves two things behind for the same
    // connection's next start-up:
    // - a FATAL error that arrived while a query ran (e.g. "terminating connection due to
    //   administrator command" when PostgreSQL restarts), which the next ReadyForQuery hands to the
    //   new connection's first query (porsager/postgres#1223): one failed request per connection after
    //   every database restart;
    // - the id of a cancelled setImmediate write (and its unsent bytes): `write()` schedules a flush
    //   only when none is pending, so the new connection's start-up message is never sent and the
    //   connection hangs until connect_timeout — and stale bytes would precede it if it were.
    // Clearing all three when the socket closes fixes both.
    why: "postgres.js carries a dead connection's error and pending write into its next start-up",
    files: ["node_modules/postgres/src/connection.js", "node_modules/postgres/cjs/src/connection.js", "node_modules/postgres/cf/src/connection.js"],
    find: "  async function closed(hadError) {\n    incoming = Buffer.alloc(0)\n",
    replace:
      "  async function closed(hadError) {\n" +
      "    errorResponse = null // patched by Parley: scripts/patch-dependencies.mjs\n" +
      "    nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n" +
      "    chunk = nextWriteTimer = null\n" +
      "    incoming = Buffer.alloc(0)\n",
  },
  {
    // postgres.js 3.4.9 writes small messages on the next tick (setImmediate); when the connection
    // closed in between, the write meets a null socket and throws outside any query — an uncaught
    // exception that kills a plain Node process (porsager/postgres#1154, #1208). The guard settles
    // the connection's queries with CONNECTION_CLOSED instead, as the fix proposed upstream does.
    why: "postgres.js throws an uncaught TypeError writing to a connection that just closed",
    files: ["node_modules/postgres/src/connection.js", "node_modules/postgres/cjs/src/connection.js", "node_modules/postgres/cf/src/connection.js"],
    find: "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
    replace:
      "  function nextWrite(fn) {\n" +
      "    if (!socket) { // patched by Parley: scripts/patch-dependencies.mjs\n" +
      "      nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n" +
      "      chunk = nextWriteTimer = null\n" +
      "      error(Errors.connection('CONNECTION_CLOSED', options, socket))\n" +
      "      return false\n" +
      "    }\n" +
      "    const x = socket.write(chunk, fn)\n",
  },
  {
    // React's Flight server, when a render completes, aborts its cacheSignal with a fresh Error. V8
    // keeps that Error's stack frames, receivers included, until its `.stack` is read — never, here —
    // and one receiver is the Immediate the render finished in, which links to the Immediates queued
    // beside it and through them to other requests' stores: every finished request stays reachable
    // from the next (about 770 of them in a 115 MB heap after some 1,400 requests to the answer
    // action), until the server runs out of heap. Aborting with the message alone, as React's fix
    // does (react#37289), keeps nothing (vercel/next.js#92287).
    why: "React's Flight server keeps every finished render alive through its abort reason's stack",
    files: [
      "node_modules/next/dist/compiled/next-server/app-page.runtime.prod.js",
      "node_modules/next/dist/compiled/next-server/app-page-turbo.runtime.prod.js",
      "node_modules/next/dist/compiled/next-server/app-page-experimental.runtime.prod.js",
      "node_modules/next/dist/compiled/next-server/app-page-turbo-experimental.runtime.prod.js",
    ],
    find: 'cacheController.abort(Error("This render completed successfully. All cacheSignals are now aborted to allow clean up of any unused resources."))',
    replace:
      'cacheController.abort(/* patched by Parley: scripts/patch-dependencies.mjs */"This render completed successfully. All cacheSignals are now aborted to allow clean up of any unused resources.")',
  },
];

let failed = false;
for (const fix of fixes) {
  for (const relative of fix.files) {
    const file = path.join(root, relative);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    if (text.includes(fix.replace)) continue;
    if (!text.includes(fix.find)) {
      console.error(`patch-dependencies: cannot fix "${fix.why}" in ${relative}: the code changed. Check whether the new version still needs it.`);
      failed = true;
      continue;
    }
    writeFileSync(file, text.replace(fix.find, fix.replace));
  }
}
process.exit(failed ? 1 : 0);
