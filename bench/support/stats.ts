import { type PerformanceEntry, PerformanceObserver } from "node:perf_hooks";

/** Summary statistics of timings, in the unit they were measured in. */
export interface Summary {
  count: number;
  median: number;
  p95: number;
  min: number;
  max: number;
  mean: number;
}

/** The value at fraction `q` (0–1) of sorted samples, linearly interpolated (as percentile_cont). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/** Median, p95, extremes and mean of samples. */
export function summarise(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
    mean: sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length),
  };
}

/** A number for a table: three significant figures, no exponent. */
export function figure(value: number, digits = 3): string {
  if (!Number.isFinite(value)) return "—";
  if (value === 0) return "0";
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return value.toFixed(decimals);
}

/** A stretch of time on `performance.now()`'s clock: a timed call, or a garbage collection's pause. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Records this thread's garbage-collection pauses (its heap's): `peek()` returns those so far, `stop()`
 * them all and stops. Contenders interleaved in one heap share it: a collection falls in whichever
 * call is allocating when the young generation fills, not necessarily the one whose garbage filled it.
 */
export function recordCollections(): { peek(): Span[]; stop(): Span[] } {
  const pauses: Span[] = [];
  const record = (entries: readonly PerformanceEntry[]) => {
    for (const entry of entries) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  };
  const observer = new PerformanceObserver((list) => record(list.getEntries()));
  observer.observe({ entryTypes: ["gc"] });
  return {
    peek() {
      // Entries still queued for the observer's callback are taken too.
      record(observer.takeRecords());
      return [...pauses];
    },
    stop() {
      record(observer.takeRecords());
      observer.disconnect();
      return pauses;
    },
  };
}

/** Of timed calls (`spans`, each with its duration in `samples` at the same index), how many had a collection's pause inside, and the median of the others. */
export function withoutCollections(spans: readonly Span[], samples: readonly number[], pauses: readonly Span[]): { hit: number; clean: Summary } {
  const inside = spans.map((span) => pauses.some((pause) => pause.end > span.start && pause.start < span.end));
  return { hit: inside.filter(Boolean).length, clean: summarise(samples.filter((_, index) => !inside[index])) };
}

/**
 * A contender of {@link interleave}: what is timed, optionally after untimed preparation; or, as
 * `{ timed }`, a call that times itself (in another thread, on its clock) and returns its milliseconds.
 */
export type Contender = (() => Promise<void>) | { prepare: () => Promise<unknown>; run: () => Promise<void> } | { timed: () => Promise<number> };

/**
 * Runs each contender's `once` in turn, round after round, so that the machine's noise falls on all
 * of them alike; returns every contender's samples (milliseconds). Warm-up rounds are not recorded.
 * A contender given as `{ prepare, run }` has `prepare` run untimed just before each timed `run`.
 */
export async function interleave<K extends string>(
  contenders: Record<K, Contender>,
  options: { rounds: number; warmup?: number },
): Promise<Record<K, number[]>> {
  const names = Object.keys(contenders) as K[];
  const samples = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  const warmup = options.warmup ?? Math.min(20, Math.ceil(options.rounds / 10));
  for (let round = 0; round < warmup + options.rounds; round++) {
    for (const name of names) {
      const contender: Contender = contenders[name];
      if ("timed" in contender) {
        const took = await contender.timed();
        if (round >= warmup) samples[name].push(took);
        continue;
      }
      const run = "run" in contender ? contender.run : contender;
      if ("prepare" in contender) await contender.prepare();
      const started = performance.now();
      await run();
      const ended = performance.now();
      if (round >= warmup) samples[name].push(ended - started);
    }
  }
  return samples;
}

/**
 * Round-by-round ratios of two contenders' samples from one {@link interleave} run (`numerator[i] /
 * denominator[i]`, same round), summarised: less sensitive to the machine's drift than a ratio of
 * medians.
 */
export function pairedRatios(numerator: readonly number[], denominator: readonly number[]): Summary {
  const count = Math.min(numerator.length, denominator.length);
  return summarise(Array.from({ length: count }, (_, index) => numerator[index]! / denominator[index]!));
}
