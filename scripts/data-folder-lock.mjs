// The lock on an embedded database folder: one process at a time (two on one PGlite folder lose each
// other's writes). Plain JavaScript so `npm start` can check it before building or starting the
// server; db/client.ts takes it for every opener. Documented in data-folder-lock.d.mts.
import { randomUUID } from "node:crypto";
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
class DataFolderLockedError extends Error {
  constructor(folder, holder) {
    super(
      `the data folder ${folder} is in use by process ${holder.pid}${holder.host === hostname() ? "" : ` on ${holder.host}`}. Only one process may open an embedded database: stop that process first, or set PARLEY_DATA_DIR to another folder.`
    );
    this.folder = folder;
    this.holder = holder;
    this.name = "DataFolderLockedError";
  }
  folder;
  holder;
  code = "data_folder_locked";
}
function lockFileFor(dataDir) {
  return `${path.resolve(dataDir)}.lock`;
}
function processStartTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}
function readHolder(file) {
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8"));
    if (typeof parsed.pid !== "number" || typeof parsed.host !== "string" || typeof parsed.nonce !== "string") return null;
    return { pid: parsed.pid, host: parsed.host, started: typeof parsed.started === "string" ? parsed.started : null, nonce: parsed.nonce };
  } catch (error) {
    if (error.code === "ENOENT") throw error;
    return null;
  }
}
function holderIsGone(holder) {
  if (!holder) return true;
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, only someone else's.
    return error.code === "ESRCH";
  }
  const started = processStartTime(holder.pid);
  return holder.started !== null && started !== null && started !== holder.started;
}
const held = /* @__PURE__ */ new Map();
let exitHookInstalled = false;
function releaseFile(file) {
  const mine = held.get(file);
  if (!mine) return;
  held.delete(file);
  try {
    // Only the lock this process wrote: never one a takeover put there since.
    if (readHolder(file)?.nonce === mine.nonce) unlinkSync(file);
  } catch {
  }
}
function liveLockHolder(dataDir) {
  let holder;
  try {
    holder = readHolder(lockFileFor(dataDir));
  } catch {
    return null;
  }
  return holderIsGone(holder) ? null : holder;
}
function lockDataFolder(dataDir) {
  const file = lockFileFor(dataDir);
  const mine = { pid: process.pid, host: hostname(), started: processStartTime("self"), nonce: randomUUID() };
  const draft = `${file}.${process.pid}.${mine.nonce}`;
  writeFileSync(draft, `${JSON.stringify(mine)}
`, { mode: 384 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(draft, file);
        break;
      } catch (error) {
        if (error.code !== "EEXIST" || attempt >= 5) throw error;
      }
      let holder;
      try {
        holder = readHolder(file);
      } catch {
        continue;
      }
      if (!holderIsGone(holder)) throw new DataFolderLockedError(path.resolve(dataDir), holder);
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
function takeOverStale(file, stale) {
  const aside = `${file}.stale.${process.pid}.${randomUUID()}`;
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  const moved = (() => {
    try {
      return readHolder(aside);
    } catch {
      return null;
    }
  })();
  // Moved aside a fresh lock another process took after we judged the old one stale: put it back.
  if (moved && moved.nonce !== stale?.nonce) {
    try {
      linkSync(aside, file);
    } catch {
    }
  }
  unlinkSync(aside);
}
export {
  DataFolderLockedError,
  holderIsGone,
  liveLockHolder,
  lockDataFolder,
  lockFileFor,
  processStartTime
};
