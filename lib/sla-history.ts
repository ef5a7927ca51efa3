import type { Db } from "@/db/client";
import { countOpenSlotsByAge, type EndedWithoutAnswer, type LongWaitRow, readSlaPeriod, type SlaReport } from "@/db/queries/sla";
import { OPEN_AGE_BUCKETS, periodStart, type SlaPeriod, TIME_TO_ANSWER_BUCKETS } from "@/lib/sla-numbers";

export type { EndedWithoutAnswer, EndedWithoutAnswerRow, LongWaitRow, SlaGroup, SlaNumbers, SlaReport } from "@/db/queries/sla";

/** A period's recorded history as the SLA page shows it, and when it was read. */
export interface SlaHistory {
  report: SlaReport;
  longest: LongWaitRow[];
  /** Answered slots by time to answer, in TIME_TO_ANSWER_BUCKETS' bars. */
  waits: number[];
  /** The waits that ended without an answer, by reason, and the latest of them. */
  unanswered: EndedWithoutAnswer;
  readAt: Date;
}

/**
 * Reads a period's history from the slots, as of `now` (exact: percentiles over every wait), in one
 * statement that reads the period's ended waits once (db/queries/sla.ts' `readSlaPeriod`).
 */
export async function readSlaHistory(db: Db, period: SlaPeriod, now: Date): Promise<SlaHistory> {
  const { report, longest, waits, unanswered } = await readSlaPeriod(db, periodStart(period, now), now, { bounds: TIME_TO_ANSWER_BUCKETS.bounds });
  return { report, longest, waits, unanswered, readAt: now };
}

/** Open waits by how long they have been open, in OPEN_AGE_BUCKETS' bars, and when they were counted. */
export interface OpenWorkByAge {
  ages: number[];
  readAt: Date;
}

/** Counts the open waits by age, as of `now`. */
export async function readOpenWorkByAge(db: Db, now: Date): Promise<OpenWorkByAge> {
  return { ages: await countOpenSlotsByAge(db, OPEN_AGE_BUCKETS.bounds, now), readAt: now };
}

/** How fresh the SLA page's history is kept. */
export interface SlaHistoryCacheOptions {
  /** A history younger than this is shown as it is. */
  maxAgeMs: number;
  /** One older than this is not shown at all: the page waits for a fresh read. In between, it is shown while one read refreshes it. */
  maxStaleMs: number;
  now?: () => Date;
  /** A refresh that failed behind a stale history; the next request tries again. */
  onError?: (error: unknown) => void;
}

/**
 * Keeps each period's history for a while: reading it means ordering every wait of the period
 * (percentiles are exact), which over a busy week is hundreds of thousands of rows — too much to do
 * for every view of the page. Whoever asks first waits for the read; later requests share it; past
 * `maxAgeMs` the kept history is shown while a single read refreshes it behind the scenes.
 */
export function createSlaHistoryCache<Value extends { readAt: Date }>(
  read: (period: SlaPeriod, now: Date) => Promise<Value>,
  options: SlaHistoryCacheOptions,
): { get(period: SlaPeriod): Promise<Value> } {
  const clock = options.now ?? (() => new Date());
  const kept = new Map<SlaPeriod, { value?: Value; reading?: Promise<Value> }>();
  return {
    get(period) {
      const entry = kept.get(period) ?? {};
      kept.set(period, entry);
      const now = clock();
      const age = entry.value ? now.getTime() - entry.value.readAt.getTime() : Infinity;
      if (entry.value && age <= options.maxAgeMs) return Promise.resolve(entry.value);
      if (!entry.reading) {
        entry.reading = read(period, now).then(
          (value) => {
            entry.value = value;
            entry.reading = undefined;
            return value;
          },
          (error: unknown) => {
            entry.reading = undefined;
            throw error;
          },
        );
        // Behind a kept history, a failed refresh is reported here; whoever waits for it hears of it too.
        if (entry.value) entry.reading.catch((error: unknown) => options.onError?.(error));
      }
      return entry.value && age <= options.maxStaleMs ? Promise.resolve(entry.value) : entry.reading;
    },
  };
}

const GLOBAL_KEY = Symbol.for("parley.sla-history");
type GlobalWithHistory = typeof globalThis & {
  [GLOBAL_KEY]?: { db: Db; cache: ReturnType<typeof createSlaHistoryCache<SlaHistory>>; ages: ReturnType<typeof createSlaHistoryCache<OpenWorkByAge>> };
};

function cachesFor(db: Db): NonNullable<GlobalWithHistory[typeof GLOBAL_KEY]> {
  const store = globalThis as GlobalWithHistory;
  if (store[GLOBAL_KEY]?.db !== db) {
    const options = {
      maxAgeMs: 60_000,
      maxStaleMs: 10 * 60_000,
      onError: (error: unknown) => console.error("Parley: refreshing the SLA numbers failed; showing the previous ones:", error),
    };
    store[GLOBAL_KEY] = {
      db,
      cache: createSlaHistoryCache((chosen, now) => readSlaHistory(db, chosen, now), options),
      // One entry, whatever the period: open work does not depend on it.
      ages: createSlaHistoryCache((_period, now) => readOpenWorkByAge(db, now), options),
    };
  }
  return store[GLOBAL_KEY];
}

/**
 * The SLA page's history for a period: read at most once a minute by this server process, and never
 * shown more than ten minutes old. Open work is not in it: its table is read live.
 */
export function slaHistoryFor(db: Db, period: SlaPeriod): Promise<SlaHistory> {
  return cachesFor(db).cache.get(period);
}

/**
 * Open work by age for the SLA page's chart, kept like the history (read at most once a minute):
 * counting it reads every open wait, which the table of open work, read live a page at a time, does not.
 */
export function openWorkByAgeFor(db: Db): Promise<OpenWorkByAge> {
  return cachesFor(db).ages.get("all");
}
