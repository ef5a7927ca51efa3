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
export declare class DataFolderLockedError extends Error {
    readonly folder: string;
    readonly holder: LockHolder;
    readonly code = "data_folder_locked";
    constructor(folder: string, holder: LockHolder);
}
/** A held lock; {@link DataFolderLock.release} gives it up (it is also given up when the process exits). */
export interface DataFolderLock {
    readonly file: string;
    release(): void;
}
/** The lock file of an embedded database folder: beside it, so PGlite's own folder holds only its files. */
export declare function lockFileFor(dataDir: string): string;
/** A process's start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`), or null where there is no /proc. */
export declare function processStartTime(pid: number | "self"): string | null;
/**
 * Whether the process a lock names is gone: on this host, no process with that pid, or one that
 * started at another moment (the pid was reused after the holder died). A holder on another host
 * (a folder shared over the network) is never judged gone: there is no way to tell from here.
 */
export declare function holderIsGone(holder: LockHolder | null): boolean;
/**
 * The live process holding an embedded database folder, or null when nobody does (or only a process
 * that is gone): a check without taking the lock, for `npm start` to refuse before the server starts.
 */
export declare function liveLockHolder(dataDir: string): LockHolder | null;
/**
 * Takes the lock on an embedded database folder for as long as this process lives (or until
 * released): a file beside the folder naming this process, created only if absent (a hard link of a
 * file written whole, so no other process ever reads it half-written). A lock left by a process that
 * is gone (killed with SIGKILL, say) is taken over; one held by a live process — this one included —
 * throws {@link DataFolderLockedError}.
 */
export declare function lockDataFolder(dataDir: string): DataFolderLock;
