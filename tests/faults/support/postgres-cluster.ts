import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./prerequisites";

const run = promisify(execFile);
const SCRIPT = path.join(ROOT, "scripts", "test-postgres.sh");

/** A PostgreSQL server of the test's own (scripts/test-postgres.sh), so that it may be restarted under load. */
export interface PostgresCluster {
  /** The server's URL (a role that may create databases). */
  url: string;
  /** Stops the server (fast: open connections are cut) and starts it again; when each finished. */
  restart(): Promise<{ stoppedAt: number; startedAt: number }>;
  /** Stops the server (fast), leaving its files. */
  stop(): Promise<void>;
  /** Starts it again. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

/**
 * Starts a fresh cluster on `port`, without blocking the event loop. The fault tests use 30450–30459:
 * below Linux's ephemeral range (32768–60999), so no client socket of the suite's own many
 * connections can be holding the port when the server binds it (one did, at 55452, in a CI run).
 */
export async function startPostgresCluster(port: number): Promise<PostgresCluster> {
  const dir = `/tmp/parley-faults-cluster-${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PARLEY_TEST_POSTGRES_PORT: String(port), PARLEY_TEST_POSTGRES_DIR: dir };
  delete env.PARLEY_TEST_POSTGRES_OPTIONS;
  const script = async (command: "start" | "stop") => (await run(SCRIPT, [command], { env, cwd: ROOT })).stdout.trim();
  // A cluster left behind by an interrupted run is stopped and started afresh.
  await script("stop").catch(() => {});
  await rm(dir, { recursive: true, force: true });
  const url = await script("start");
  return {
    url,
    async restart() {
      await script("stop");
      const stoppedAt = Date.now();
      await script("start");
      return { stoppedAt, startedAt: Date.now() };
    },
    async stop() {
      await script("stop");
    },
    async start() {
      await script("start");
    },
    async destroy() {
      await script("stop").catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}
