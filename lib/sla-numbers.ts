import { formatDuration } from "./sla-clock";

/** The periods SLA numbers can be read over, as the `period` query parameter spells them. */
export const SLA_PERIODS = ["24h", "7d", "30d", "all"] as const;
export type SlaPeriod = (typeof SLA_PERIODS)[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const PERIOD_MS: Record<SlaPeriod, number | null> = { "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY, all: null };

/** Labels for the period picker. */
export const SLA_PERIOD_LABELS: Record<SlaPeriod, string> = { "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days", all: "All time" };

/** A period from a query parameter; anything else reads as the last 7 days. */
export function parseSlaPeriod(value: unknown): SlaPeriod {
  return SLA_PERIODS.find((period) => period === value) ?? "7d";
}

/** Where a period starts, as of `now`; null for all time. */
export function periodStart(period: SlaPeriod, now: Date): Date | null {
  const length = PERIOD_MS[period];
  return length === null ? null : new Date(now.getTime() - length);
}

/** Bars of a chart: each upper bound (exclusive) in milliseconds, the last bar open-ended. */
export interface Buckets {
  /** Ascending; n bounds make n + 1 bars. */
  bounds: readonly number[];
  labels: readonly string[];
}

/** How long open work has been waiting. */
export const OPEN_AGE_BUCKETS: Buckets = {
  bounds: [HOUR, 4 * HOUR, DAY, 2 * DAY],
  labels: ["< 1h", "1–4h", "4–24h", "1–2d", "> 2d"],
};

/** How long answered work waited for its answer. */
export const TIME_TO_ANSWER_BUCKETS: Buckets = {
  bounds: [15 * 60_000, HOUR, 4 * HOUR, DAY, 2 * DAY],
  labels: ["< 15m", "15m–1h", "1–4h", "4–24h", "1–2d", "> 2d"],
};

/** The "By agent" row of questions no agent asked: a flow's questionnaire, or an ask over the API. */
export const NO_AGENT_LABEL = "Asked without an agent (a questionnaire or the API)";

/** "87%" (or "—" when nothing finished in the period). */
export function formatShare(part: number, whole: number): string {
  if (whole === 0) return "—";
  return `${Math.round((part / whole) * 1000) / 10}%`;
}

/** A time-to-answer percentile as a duration (or "—" when nothing was answered). */
export function formatPercentile(value: number | null): string {
  return value === null ? "—" : formatDuration(value);
}
