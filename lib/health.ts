import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";

/**
 * Whether this process can do its work, as a load balancer or an orchestrator asks (`/api/ready`):
 * each check by name, in words that say nothing of the setup (no address, version or error text).
 */
export interface Readiness {
  ready: boolean;
  checks: {
    /** The database answers a query within the probe's time. */
    database: "reachable" | "unreachable";
    /** This process opened the database and applied every migration (the platform's and each app's). */
    migrations: "applied" | "not applied";
    /** The worker loop (SLA sweep, jobs) is going; `off` when this process was told to run none (`PARLEY_WORKER=off`). */
    worker: "running" | "not running" | "off";
  };
}

/** What readiness is read from: this process's database and worker, as it started them. */
export interface ReadinessSources {
  /** The database, opened and migrated: rejects (or does not settle in time) when it cannot be. */
  database(): Promise<{ db: Db }>;
  worker(): Promise<{ running(): boolean; off?: boolean }>;
}

/** How long each check may take before it counts as failing: a probe must answer well within its own timeout. */
export const READINESS_TIMEOUT_MS = 2_000;

/** `promise`'s value if it settles successfully within `ms`; undefined otherwise. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Checks the database (one `select 1`), the migrations and the worker, at once, each within `timeoutMs`. */
export async function checkReadiness(sources: ReadinessSources, options: { timeoutMs?: number } = {}): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? READINESS_TIMEOUT_MS;
  const [database, worker] = await Promise.all([
    (async () => {
      const opened = await within(sources.database(), timeoutMs);
      if (!opened) return { migrated: false, reachable: false };
      const answered = await within(opened.db.execute(sql`select 1`).then(() => true), timeoutMs);
      return { migrated: true, reachable: answered === true };
    })(),
    within(
      sources.worker().then((worker) => (worker.off ? "off" : worker.running() ? "running" : "not running")),
      timeoutMs,
    ),
  ]);
  const checks: Readiness["checks"] = {
    database: database.reachable ? "reachable" : "unreachable",
    migrations: database.migrated ? "applied" : "not applied",
    worker: worker ?? "not running",
  };
  return { ready: database.reachable && database.migrated && checks.worker !== "not running", checks };
}
