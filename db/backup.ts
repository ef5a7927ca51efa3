import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { type Database, openDatabase } from "./client";
import { lockDataFolder } from "./data-folder-lock";

/**
 * Backups of the embedded database (PGlite in a data folder). A PostgreSQL server is backed up with
 * its own tools (pg_dump / pg_restore: docs/operations.md); these are for the folder `npm start` uses.
 */

/**
 * A consistent copy of an open embedded database, as a gzip'd tar of its folder: taken while no
 * transaction is open (PGlite's transaction lock is held for the length of it, so a transaction that
 * has begun finishes first and the next waits), just after a checkpoint (so the copy needs little
 * recovery to open). Every statement waits for it, as PGlite runs one at a time.
 */
export async function dumpEmbedded(pglite: PGlite): Promise<Uint8Array> {
  // Outside the lock: PGlite's statements take it themselves.
  await pglite.exec("checkpoint");
  const archive = await pglite._runExclusiveTransaction(() => pglite.dumpDataDir("gzip"));
  return new Uint8Array(await archive.arrayBuffer());
}

/** Why a backup cannot be restored into a folder. */
export class RestoreRefusedError extends Error {}

/**
 * Makes the embedded database's folder (`<PARLEY_DATA_DIR>/pglite`) from a backup {@link dumpEmbedded}
 * took: only into a folder that does not exist or is empty, never over a database, and never while a
 * server holds it (its lock is taken for the length of it). Then opens the result the way a server
 * does (locked, folders 0700 and files 0600) to be sure it reads.
 */
export async function restoreEmbedded(archive: Uint8Array, target: { dataDir: string; folder: string }): Promise<void> {
  const { dataDir, folder } = target;
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const lock = lockDataFolder(dataDir);
  try {
    if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
      throw new RestoreRefusedError(`${dataDir} already holds a database: move it aside (or point PARLEY_DATA_DIR at an empty folder) and restore again.`);
    }
    let loaded: PGlite;
    try {
      loaded = await PGlite.create({ dataDir, loadDataDir: new Blob([archive as Uint8Array<ArrayBuffer>]) });
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      throw new RestoreRefusedError(`this is not a backup Parley can restore (${error instanceof Error ? error.message : String(error)}).`);
    }
    await loaded.close();
  } finally {
    lock.release();
  }
  const database: Database = await openDatabase({ kind: "pglite", dataDir, folder });
  try {
    await database.db.execute("select 1");
  } finally {
    await database.close();
  }
}
