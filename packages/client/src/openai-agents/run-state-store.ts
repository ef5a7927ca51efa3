/**
 * Where a parked run's state is kept while a person decides: a key (the run's id) to a string (the
 * serialised `RunState` with the asks made for it). Any durable key-value store fits — a file, a
 * database row, Redis — as long as `take` is atomic.
 *
 * Not Parley's ask `metadata`: it holds at most 4 KB, and a `RunState` of one short turn is already
 * about 3.5 KB (it carries the conversation, the model's responses and the agent's tools), so any real
 * run outgrows it.
 */
export interface RunStateStore {
  /** Keeps `value` under `key`, replacing what was there. Resolves once it is durable. */
  save(key: string, value: string): Promise<void>;
  /** What is kept under `key`, or undefined. */
  load(key: string): Promise<string | undefined>;
  /**
   * Removes what is kept under `key` and returns it — atomically, so that of two callers taking the
   * same key at once exactly one gets the value (SQL: `DELETE … RETURNING`; Redis: `GETDEL`). This is
   * what makes a run resume once when two answers arrive together.
   */
  take(key: string): Promise<string | undefined>;
}

/**
 * A {@link RunStateStore} in this process's memory: for tests, and for runs that need not outlive the
 * process (a person answering within one long-lived worker).
 */
export function memoryRunStateStore(): RunStateStore {
  const values = new Map<string, string>();
  return {
    async save(key, value) {
      values.set(key, value);
    },
    async load(key) {
      return values.get(key);
    },
    async take(key) {
      const value = values.get(key);
      values.delete(key);
      return value;
    },
  };
}

/** The few `node:fs/promises` functions the file store uses (the package compiles without Node's types). */
interface FileSystem {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  readFile(path: string, encoding: "utf8"): Promise<string>;
  writeFile(path: string, data: string, options: { encoding: "utf8"; flag: "wx" }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

// Loaded when a file store is first used, so the package still loads where there is no file system
// (edge runtimes, browsers); a variable specifier keeps bundlers from pulling it in.
const FS_MODULE = "node:fs/promises";
let fileSystem: Promise<FileSystem> | undefined;
const loadFileSystem = () => (fileSystem ??= import(/* webpackIgnore: true */ FS_MODULE) as Promise<FileSystem>);

const isMissing = (error: unknown) => typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";

/**
 * A {@link RunStateStore} of one JSON file per run in `directory` (made if missing), for a single
 * machine or a shared volume: it survives restarts of your process and of Parley. Writes go to a
 * temporary file renamed into place, so a crash never leaves half a state; `take` renames the file
 * away first, so only one of two resumes racing for it gets it. Node.js only.
 */
export function fileRunStateStore(directory: string): RunStateStore {
  const base = directory.replace(/[/\\]+$/, "");
  // encodeURIComponent leaves no path separator in the name: a key cannot reach outside the directory.
  const fileOf = (key: string) => `${base}/${encodeURIComponent(key)}.json`;
  const unique = () => globalThis.crypto.randomUUID();
  return {
    async save(key, value) {
      const fs = await loadFileSystem();
      await fs.mkdir(base, { recursive: true });
      const temporary = `${fileOf(key)}.${unique()}.saving`;
      await fs.writeFile(temporary, value, { encoding: "utf8", flag: "wx" });
      await fs.rename(temporary, fileOf(key));
    },
    async load(key) {
      const fs = await loadFileSystem();
      try {
        return await fs.readFile(fileOf(key), "utf8");
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async take(key) {
      const fs = await loadFileSystem();
      const taken = `${fileOf(key)}.${unique()}.taken`;
      try {
        await fs.rename(fileOf(key), taken);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      const value = await fs.readFile(taken, "utf8");
      await fs.unlink(taken);
      return value;
    },
  };
}
