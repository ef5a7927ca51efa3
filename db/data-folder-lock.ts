import { randomUUID } from "node:crypto";
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

/** Who holds a data folder: written into its lock file when the lock is taken. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The holder's start time as the kernel counts it (`/proc/<pid>/stat`), to tell a reused pid apart; null off Linux. */
  started: string | null;
  /** Unique to this taking of the lock, so a takeover removes only the stale lock it judged. */
  nonce: string;
}

/** A data folder another live process holds: its message names the folder and that process. */
export class DataFolderLockedError extends Error {
  readonly code = "data_folder_locked";
  constructor(
    readonly folder: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the data folder ${folder} is in use by process ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`}. ` +
        "Only one process may open an embedded database: stop that process first, or set PARLEY_DATA_DIR to another folder.",
    );
    this.name = "DataFolderLockedError";
  }
}

/** A held lock; {@link DataFolderLock.release} gives it up (it is also given up when the process exits). */
export interface DataFolderLock {
  readonly file: string;
  release(): void;
}

/** The lock file of an embedded database folder: beside it, so PGlite's own folder holds only its files. */
export function lockFileFor(dataDir: string): string {
  return `${path.resolve(dataDir)}.lock`;
}

/** A process's start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`), or null where there is no /proc. */
export function processStartTime(pid: number | "self"): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function readHolder(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as Partial<LockHolder>;
    if (typeof parsed.pid !== "number" || typeof parsed.host !== "string" || typeof parsed.nonce !== "string") return null;
    return { pid: parsed.pid, host: parsed.host, started: typeof parsed.started === "string" ? parsed.started : null, nonce: parsed.nonce };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw error;
    // Unreadable or not ours: written whole (see below), so it can only be damaged — no live holder.
    return null;
  }
}

/**
 * Whether the process a lock names is gone: on this host, no process with that pid, or one that
 * started at another moment (the pid was reused after the holder died). A holder on another host
 * (a folder shared over the network) is never judged gone: there is no way to tell from here.
 */
export function holderIsGone(holder: LockHolder | null): boolean {
  if (!holder) return true;
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, only someone else's.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  const started = processStartTime(holder.pid);
  return holder.started !== null && started !== null && started !== holder.started;
}

const held = new Map<string, LockHolder>();
let exitHookInstalled = false;

function releaseFile(file: string): void {
  const mine = held.get(file);
  if (!mine) return;
  held.delete(file);
  try {
    // Only the lock this process wrote: never one a takeover put there since.
    if (readHolder(file)?.nonce === mine.nonce) unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/**
 * Takes the lock on an embedded database folder for as long as this process lives (or until
 * released): a file beside the folder naming this process, created only if absent (a hard link of a
 * file written whole, so no other process ever reads it half-written). A lock left by a process that
 * is gone (killed with SIGKILL, say) is taken over; one held by a live process — this one included —
 * throws {@link DataFolderLockedError}.
 */
export function lockDataFolder(dataDir: string): DataFolderLock {
  const file = lockFileFor(dataDir);
  const mine: LockHolder = { pid: process.pid, host: hostname(), started: processStartTime("self"), nonce: randomUUID() };
  const draft = `${file}.${process.pid}.${mine.nonce}`;
  writeFileSync(draft, `${JSON.stringify(mine)}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 5) throw error;
      }
      let holder: LockHolder | null;
      try {
        holder = readHolder(file);
      } catch {
        continue; // released between our attempt and the read
      }
      if (!holderIsGone(holder)) throw new DataFolderLockedError(path.resolve(dataDir), holder!);
      takeOverStale(file, holder);
    }
  } finally {
    unlinkSync(draft);
  }
  held.set(file, mine);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const heldFile of [...held.keys()]) releaseFile(heldFile);
    });
  }
  return { file, release: () => releaseFile(file) };
}

/**
 * Removes a stale lock, and only that one: it is first moved aside (atomically), then checked to be
 * the very lock judged stale; a fresh lock another process took meanwhile is put back.
 */
function takeOverStale(file: string, stale: LockHolder | null): void {
  const aside = `${file}.stale.${process.pid}.${randomUUID()}`;
  try {
    renameSync(file, aside);
  } catch {
    return; // someone else moved it first: try again
  }
  const moved = (() => {
    try {
      return readHolder(aside);
    } catch {
      return null;
    }
  })();
  if (moved && moved.nonce !== stale?.nonce) {
    try {
      linkSync(aside, file);
    } catch {
      // A third process holds it now; it stays theirs.
    }
  }
  unlinkSync(aside);
}
