import type { Db } from "@/db/client";
import { countAnsweredByWait, type EndedWithoutAnswer, type LongWaitRow, listLongestWaits, readEndedWithoutAnswer, readSlaReport, type SlaReport } from "@/db/queries/sla";
import { periodStart, type SlaPeriod, TIME_TO_ANSWER_BUCKETS } from "@/lib/sla-numbers";

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
 * Reads a period's history from the slots, as of `now` (exact: percentiles over every wait). The
 * reads run one after another: this mostly runs behind the page, and one database connection
 * busy for a little longer leaves more room for the requests being served meanwhile than three.
 */
export async function readSlaHistory(db: Db, period: SlaPeriod, now: Date): Promise<SlaHistory> {
  const since = periodStart(period, now);
  const report = await readSlaReport(db, since, now);
  const longest = await listLongestWaits(db, since, now);
  const waits = await countAnsweredByWait(db, TIME_TO_ANSWER_BUCKETS.bounds, since, now);
  const unanswered = await readEndedWithoutAnswer(db, since, now);
  return { report, longest, waits, unanswered, readAt: now };
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
type GlobalWithHistory = typeof globalThis & { [GLOBAL_KEY]?: { db: Db; cache: ReturnType<typeof createSlaHistoryCache<SlaHistory>> } };

/**
 * The SLA page's history for a period: read at most once a minute by this server process, and never
 * shown more than ten minutes old. Open work is not in it: that is read live.
 */
export function slaHistoryFor(db: Db, period: SlaPeriod): Promise<SlaHistory> {
  const store = globalThis as GlobalWithHistory;
  if (store[GLOBAL_KEY]?.db !== db) {
    store[GLOBAL_KEY] = {
      db,
      cache: createSlaHistoryCache((chosen, now) => readSlaHistory(db, chosen, now), {
        maxAgeMs: 60_000,
        maxStaleMs: 10 * 60_000,
        onError: (error) => console.error("Parley: refreshing the SLA numbers failed; showing the previous ones:", error),
      }),
    };
  }
  return store[GLOBAL_KEY].cache.get(period);
}
