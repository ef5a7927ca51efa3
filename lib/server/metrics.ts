import { databasePools } from "@/db/client";
import { type OperationalCounts, readOperationalCounts } from "@/db/queries/metrics";
import { getDb } from "@/lib/database";
import { createMetrics, type ParleyMetrics } from "@/lib/metrics";
import { slaHistoryFor } from "@/lib/sla-history";

/** How long one reading of the open work, jobs and deliveries serves scrapes: several Prometheus servers (or a short interval) read the database once. */
const COUNTS_MAX_AGE_MS = 10_000;

/** `read`, its successful result reused for `maxAgeMs` and one read shared by the calls that overlap it; a failure is not kept. */
function reusedFor<Value>(read: () => Promise<Value>, maxAgeMs: number): () => Promise<Value> {
  let kept: { value: Value; at: number } | undefined;
  let reading: Promise<Value> | undefined;
  return () => {
    if (kept && performance.now() - kept.at < maxAgeMs) return Promise.resolve(kept.value);
    reading ??= read()
      .then((value) => {
        kept = { value, at: performance.now() };
        return value;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
}

const METRICS_KEY = Symbol.for("parley.metrics");
type GlobalWithMetrics = typeof globalThis & { [METRICS_KEY]?: ParleyMetrics };

/**
 * This process's metrics: one registry for the process, however many copies of this module Next.js
 * bundles (route handlers and pages each get their own), so every request is counted in the one that is scraped.
 */
export function getMetrics(): ParleyMetrics {
  const store = globalThis as GlobalWithMetrics;
  return (store[METRICS_KEY] ??= createMetrics({
    counts: reusedFor(async (): Promise<OperationalCounts> => readOperationalCounts(await getDb(), new Date()), COUNTS_MAX_AGE_MS),
    lastDay: async () => slaHistoryFor(await getDb(), "24h"),
    pools: databasePools,
  }));
}
