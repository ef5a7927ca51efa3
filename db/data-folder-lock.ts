// The lock lives in plain JavaScript so that `npm start` (scripts/start.mjs) can check it too.
export { DataFolderLockedError, holderIsGone, liveLockHolder, lockDataFolder, lockFileFor, processStartTime } from "@/scripts/data-folder-lock.mjs";
export type { DataFolderLock, LockHolder } from "@/scripts/data-folder-lock.mjs";
