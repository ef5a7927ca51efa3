import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dumpEmbedded, restoreEmbedded, RestoreRefusedError } from "@/db/backup";
import { openDatabase, targetFromEnvironment } from "@/db/client";
import { DataFolderLockedError, liveLockHolder } from "@/db/data-folder-lock";
import { BackupNotTakenError, requestBackup } from "@/lib/backup-socket";
import { EXIT, type TerminalIo } from "@/lib/runtime/terminal";

type Environment = Record<string, string | undefined>;

interface Context {
  io: TerminalIo;
  env: Environment;
  /** Where `parley` was run: file names given are read and written from there. */
  from: string;
  now?: Date;
}

/** The embedded database's folders, or null (and what was said) when Parley runs on PostgreSQL. */
function embeddedTarget(context: Context, pgTool: string): { dataDir: string; folder: string } | null {
  const target = targetFromEnvironment(context.env);
  if (target.kind === "pglite" && target.dataDir && target.folder) return { dataDir: target.dataDir, folder: target.folder };
  context.io.stderr.write(
    `DATABASE_URL is set: Parley's data is in that PostgreSQL database, which ${pgTool} backs up and restores (docs/operations.md says how). ` +
      "`parley backup` and `parley restore` are for the embedded database of `npm start`.\n",
  );
  return null;
}

/** `parley-backup-2026-12-06T12-00-00Z.tar.gz`: sorts by time, and no character a shell or Windows minds. */
function defaultName(now: Date): string {
  return `parley-backup-${now.toISOString().slice(0, 19).replaceAll(":", "-")}Z.tar.gz`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * `parley backup [--out FILE]`: a consistent copy of the embedded database. With a server running on
 * the folder, the server takes it (over its backup socket, between transactions) and keeps serving;
 * without one, the folder is opened here. Written beside the target first and renamed into place, so
 * a file of that name is always a whole backup; private to its owner (0600), as the folder is.
 */
export async function backupCommand(context: Context, options: { out?: string }): Promise<number> {
  const target = embeddedTarget(context, "`pg_dump --format=custom`");
  if (!target) return EXIT.refused;
  const out = path.resolve(context.from, options.out ?? defaultName(context.now ?? new Date()));
  const holder = liveLockHolder(target.dataDir);
  let backup: Uint8Array;
  try {
    if (holder) {
      backup = await requestBackup(target.folder);
    } else {
      if (!existsSync(target.dataDir) || readdirSync(target.dataDir).length === 0) {
        context.io.stderr.write(`There is no database in ${target.folder} to back up: is PARLEY_DATA_DIR right?\n`);
        return EXIT.refused;
      }
      const database = await openDatabase({ kind: "pglite", dataDir: target.dataDir, folder: target.folder });
      try {
        backup = await dumpEmbedded(database.pglite!);
      } finally {
        await database.close();
      }
    }
  } catch (error) {
    if (error instanceof BackupNotTakenError) {
      context.io.stderr.write(`No backup was taken: the server running on ${target.folder} (pid ${holder?.pid}) was asked and ${error.message}\n`);
      return EXIT.failure;
    }
    if (error instanceof DataFolderLockedError) {
      context.io.stderr.write(`No backup was taken: a server started on ${target.folder} meanwhile. Back up again: it will be asked.\n`);
      return EXIT.failure;
    }
    throw error;
  }
  const partial = `${out}.partial-${process.pid}`;
  try {
    writeFileSync(partial, backup, { mode: 0o600 });
    renameSync(partial, out);
  } catch (error) {
    rmSync(partial, { force: true });
    context.io.stderr.write(`The backup was taken but could not be written to ${out}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failure;
  }
  context.io.stdout.write(`Backed up the embedded database in ${target.folder} (${megabytes(backup.byteLength)}) to ${out}${holder ? ", taken by the running server" : ""}.\n`);
  return EXIT.ok;
}

/**
 * `parley restore FILE`: the embedded database made again from a backup, into an empty data folder
 * only and never while a server runs on it.
 */
export async function restoreCommand(context: Context, file: string): Promise<number> {
  const target = embeddedTarget(context, "`pg_restore`");
  if (!target) return EXIT.refused;
  const from = path.resolve(context.from, file);
  const holder = liveLockHolder(target.dataDir);
  if (holder) {
    context.io.stderr.write(`A Parley server (pid ${holder.pid}) is running on ${target.folder}: stop it, move its folder aside, and restore into an empty one.\n`);
    return EXIT.refused;
  }
  let backup: Uint8Array;
  try {
    if (!statSync(from).isFile()) throw new Error("it is not a file");
    backup = new Uint8Array(readFileSync(from));
  } catch (error) {
    context.io.stderr.write(`Could not read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.usage;
  }
  try {
    await restoreEmbedded(backup, target);
  } catch (error) {
    if (error instanceof RestoreRefusedError || error instanceof DataFolderLockedError) {
      context.io.stderr.write(`Nothing was restored: ${error.message}\n`);
      return EXIT.refused;
    }
    throw error;
  }
  context.io.stdout.write(`Restored ${from} into ${target.folder}. Start Parley on it (npm start) to serve it; it applies any newer migrations as it starts.\n`);
  return EXIT.ok;
}
