import { createHash, timingSafeEqual } from "node:crypto";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { OperationalCounts } from "@/db/queries/metrics";
import type { EndedWithoutAnswer, SlaReport } from "@/db/queries/sla";
import { NOTHING_REASONS } from "@/db/schema";

export type { OperationalCounts } from "@/db/queries/metrics";

/** What the metrics read from the database at a scrape: each may reject (the database away), and the rest is still served. */
export interface MetricsSources {
  /** Open work by workflow and team, jobs and deliveries, as they are now. */
  counts(): Promise<OperationalCounts>;
  /** The last 24 hours' SLA numbers and the waits that ended without an answer, as the SLA page shows them (read at most once a minute: lib/sla-history.ts). */
  lastDay(): Promise<{ report: SlaReport; unanswered: EndedWithoutAnswer }>;
  /** This process's PostgreSQL connection pools as they are now (none on the embedded database). */
  pools?(): readonly { name: string; size: number; busy: number }[];
}

/** The seconds an API request's duration is counted in: from a quick read to a long-poll's minute. */
const REQUEST_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The seconds a model call is counted in: from a scripted reply to the two minutes a turn may take. */
const MODEL_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];

/** One process's metrics, in Prometheus's text format. */
export interface ParleyMetrics {
  /** Counts one finished API request: its route as written in `app/` (never the path a caller sent), method, status and seconds. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** Counts one call to a model (one step of an agent's turn): its provider, whether it answered, and seconds. */
  observeModelCall(provider: string, outcome: "answered" | "failed", seconds: number): void;
  /** Counts one job this process's worker took over from a worker whose lease on it ran out. */
  observeLeaseTakeover(kind: string): void;
  /** Everything, read afresh from the database where it comes from there: the response to a scrape. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** Sets a gauge's series to `values`, forgetting series no longer present (a workflow with no open work drops to nothing). */
function setAll<Label extends string>(gauge: Gauge<Label>, values: readonly { labels: Record<Label, string>; value: number }[]): void {
  gauge.reset();
  for (const { labels, value } of values) gauge.set(labels, value);
}

/**
 * A process's metrics over its own registry: request counts and durations this process served, the
 * process's own figures (CPU, memory, event loop, heap), and gauges read from the database at each
 * scrape, so every instance of a deployment reports the same work and a dashboard takes any one (`max`).
 */
export function createMetrics(sources: MetricsSources): ParleyMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "parley_" });
  const registers = [registry];

  const requests = new Counter({
    name: "parley_http_requests_total",
    help: "API requests this process answered, by route (as written in app/), method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers,
  });
  const durations = new Histogram({
    name: "parley_http_request_duration_seconds",
    help: "How long this process took to answer API requests, by route and method (a long-poll counts its wait).",
    labelNames: ["route", "method"] as const,
    buckets: REQUEST_SECONDS,
    registers,
  });
  const modelCalls = new Counter({
    name: "parley_model_calls_total",
    help: "Calls this process made to a model (each step of an agent's turn), by provider and outcome (answered, failed).",
    labelNames: ["provider", "outcome"] as const,
    registers,
  });
  const modelSeconds = new Histogram({
    name: "parley_model_call_duration_seconds",
    help: "How long this process's model calls took, by provider, failed ones included.",
    labelNames: ["provider"] as const,
    buckets: MODEL_SECONDS,
    registers,
  });
  const reachable = new Gauge({ name: "parley_database_reachable", help: "1 when this scrape could read the database, 0 when it could not.", registers });
  const open = new Gauge({ name: "parley_open_questions", help: "Questions waiting for a person, by workflow.", labelNames: ["workflow"] as const, registers });
  const overdue = new Gauge({ name: "parley_overdue_questions", help: "Questions waiting past their due time, by workflow.", labelNames: ["workflow"] as const, registers });
  const teamOpen = new Gauge({ name: "parley_team_open_questions", help: "Questions put to a team, waiting, by team (one put to two teams counts for both).", labelNames: ["team"] as const, registers });
  const teamOverdue = new Gauge({ name: "parley_team_overdue_questions", help: "Questions put to a team, waiting past their due time, by team.", labelNames: ["team"] as const, registers });
  const jobs = new Gauge({
    name: "parley_jobs",
    help: "Durable runtime jobs by status: queued (waiting to run), running, failed (their runs retryable, or failed for good).",
    labelNames: ["status"] as const,
    registers,
  });
  const poolSize = new Gauge({ name: "parley_database_pool_size", help: "The most connections this process's pool may open to PostgreSQL, by pool (requests, worker).", labelNames: ["pool"] as const, registers });
  const poolBusy = new Gauge({
    name: "parley_database_pool_busy",
    help: "Statements and transactions of this process holding or waiting for one of its pool's PostgreSQL connections, by pool: above the pool's size, work queues for a connection.",
    labelNames: ["pool"] as const,
    registers,
  });
  const takeovers = new Counter({
    name: "parley_job_lease_takeovers_total",
    help: "Jobs this process took over from a worker whose lease on them ran out (it died, hung, or stopped without handing them back), by kind.",
    labelNames: ["kind"] as const,
    registers,
  });
  const deliveries = new Gauge({
    name: "parley_deliveries",
    help: "Notification deliveries (webhooks, email) by status: queued (including retries), delivering, failed (given up).",
    labelNames: ["status"] as const,
    registers,
  });
  const waits = new Gauge({
    name: "parley_answer_wait_seconds",
    help: "Time to answer over the last 24 hours, as the SLA page shows it: exact quantiles over every answered question, by workflow (\"\" for all).",
    labelNames: ["workflow", "quantile"] as const,
    registers,
  });
  const answered = new Gauge({ name: "parley_answered_questions_24h", help: "Questions answered in the last 24 hours, by workflow (\"\" for all).", labelNames: ["workflow"] as const, registers });
  const breaches = new Gauge({
    name: "parley_sla_breaches_24h",
    help: "Questions of the last 24 hours answered after their due time or never, by workflow (\"\" for all).",
    labelNames: ["workflow"] as const,
    registers,
  });

  const nothing = new Gauge({
    name: "parley_nothing_24h",
    help: "Questions of the last 24 hours that ended with nothing, by why (refused, away, non-interactive, expired, cancelled, unavailable).",
    labelNames: ["reason"] as const,
    registers,
  });

  function readPools(): void {
    const pools = sources.pools?.() ?? [];
    setAll(poolSize, pools.map((pool) => ({ labels: { pool: pool.name }, value: pool.size })));
    setAll(poolBusy, pools.map((pool) => ({ labels: { pool: pool.name }, value: pool.busy })));
  }

  async function readDatabase(): Promise<void> {
    const [counts, lastDay] = await Promise.allSettled([sources.counts(), sources.lastDay()]);
    reachable.set(counts.status === "fulfilled" ? 1 : 0);
    if (counts.status === "fulfilled") {
      const { openByWorkflow, openByTeam } = counts.value;
      setAll(open, openByWorkflow.map((row) => ({ labels: { workflow: row.name }, value: row.open })));
      setAll(overdue, openByWorkflow.map((row) => ({ labels: { workflow: row.name }, value: row.overdue })));
      setAll(teamOpen, openByTeam.map((row) => ({ labels: { team: row.name }, value: row.open })));
      setAll(teamOverdue, openByTeam.map((row) => ({ labels: { team: row.name }, value: row.overdue })));
      setAll(jobs, Object.entries(counts.value.jobs).map(([status, value]) => ({ labels: { status }, value })));
      setAll(deliveries, Object.entries(counts.value.deliveries).map(([status, value]) => ({ labels: { status }, value })));
    } else {
      // Nothing is better than a figure that is no longer true: each series reappears when the database answers again.
      for (const gauge of [open, overdue, teamOpen, teamOverdue, jobs, deliveries]) gauge.reset();
    }
    if (lastDay.status === "fulfilled") {
      const { report, unanswered } = lastDay.value;
      const groups = [{ ...report.overall, key: "" }, ...report.byWorkflow.map((group) => ({ ...group, key: group.key ?? "" }))];
      setAll(
        waits,
        groups.flatMap((group) =>
          (
            [
              ["0.5", group.p50],
              ["0.9", group.p90],
              ["0.95", group.p95],
            ] as const
          ).flatMap(([quantile, ms]) => (ms === null ? [] : [{ labels: { workflow: group.key, quantile }, value: ms / 1000 }])),
        ),
      );
      setAll(answered, groups.map((group) => ({ labels: { workflow: group.key }, value: group.answered })));
      setAll(breaches, groups.map((group) => ({ labels: { workflow: group.key }, value: group.breaches })));
      // Every reason, zero when it did not happen: a rate of refusals reads as 0, not as no data.
      setAll(nothing, NOTHING_REASONS.map((reason) => ({ labels: { reason }, value: unanswered.byReason.find((row) => row.reason === reason)?.count ?? 0 })));
    } else {
      for (const gauge of [waits, answered, breaches, nothing]) gauge.reset();
    }
  }

  return {
    observeRequest(route, method, status, seconds) {
      requests.inc({ route, method, status: String(status) });
      durations.observe({ route, method }, seconds);
    },
    observeModelCall(provider, outcome, seconds) {
      modelCalls.inc({ provider, outcome });
      modelSeconds.observe({ provider }, seconds);
    },
    observeLeaseTakeover(kind) {
      takeovers.inc({ kind });
    },
    async render() {
      readPools();
      await readDatabase();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/**
 * Whether a scrape presents the metrics token as `Authorization: Bearer <token>` (compared in
 * constant time, over digests so that the length does not show either).
 */
export function presentsMetricsToken(authorization: string | null, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}
