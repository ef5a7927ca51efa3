import type { Db } from "@/db/client";
import { loadSlaSnapshot, saveSlaSnapshot } from "@/db/queries/sla-snapshots";
import { countOpenSlotsByAge, type EndedWithoutAnswer, type LongWaitRow, readSlaPeriod, type SlaReport } from "@/db/queries/sla";
import { log } from "@/lib/log";
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

/**
 * Where readings are kept beyond this server process (the database's `sla_snapshots`): a restarted
 * server, or another process of the same deployment, finds the last reading there instead of working
 * the numbers out again.
 */
export interface SlaReadingStore<Value> {
  load(period: SlaPeriod): Promise<Value | undefined>;
  save(period: SlaPeriod, value: Value): Promise<void>;
}

/** How fresh the SLA page's history is kept. */
export interface SlaHistoryCacheOptions<Value> {
  /** A history younger than this is shown as it is. */
  maxAgeMs: number;
  /** One older than this is not shown at all: the page waits for a fresh read. In between, it is shown while one read refreshes it. */
  maxStaleMs: number;
  now?: () => Date;
  /** A refresh that failed behind a stale history (or the store failing); the next request tries again. */
  onError?: (error: unknown) => void;
  /** Readings kept beyond this process: consulted before the first read and before each refresh, given every new reading. */
  store?: SlaReadingStore<Value>;
}

/**
 * Keeps each period's history for a while: reading it means ordering every wait of the period
 * (percentiles are exact), which over a busy week is hundreds of thousands of rows — too much to do
 * for every view of the page. Whoever asks first waits for the read; later requests share it; past
 * `maxAgeMs` the kept history is shown while a single read refreshes it behind the scenes. With a
 * `store`, the first request of a new process shows the stored reading when it is younger than
 * `maxStaleMs` (refreshing it behind the scenes like any other), and a refresh takes another
 * process's reading younger than `maxAgeMs` instead of reading again.
 */
export function createSlaHistoryCache<Value extends { readAt: Date }>(
  read: (period: SlaPeriod, now: Date) => Promise<Value>,
  options: SlaHistoryCacheOptions<Value>,
): { get(period: SlaPeriod): Promise<Value> } {
  const clock = options.now ?? (() => new Date());
  const { store } = options;
  const report = (error: unknown): undefined => {
    options.onError?.(error);
  };
  const kept = new Map<SlaPeriod, { value?: Value; reading?: Promise<Value>; consulting?: Promise<void>; consulted?: boolean }>();
  // The stored reading if it is newer than `than` (a store that fails is reported and passed over).
  const stored = async (period: SlaPeriod, than: Value | undefined): Promise<Value | undefined> => {
    if (!store) return undefined;
    const value = await store.load(period).catch(report);
    return value && (!than || value.readAt > than.readAt) ? value : undefined;
  };
  const refresh = async (period: SlaPeriod, now: Date, current: Value | undefined): Promise<Value> => {
    if (!store) return read(period, now);
    // With nothing of its own, this process has just consulted the store: only a kept reading can be newer.
    const other = current ? await stored(period, current) : undefined;
    if (other && now.getTime() - other.readAt.getTime() <= options.maxAgeMs) return other;
    const value = await read(period, now);
    await store.save(period, value).catch(report);
    return value;
  };
  const get = (period: SlaPeriod): Promise<Value> => {
    const entry = kept.get(period) ?? {};
    kept.set(period, entry);
    // This process's first ask: whatever reading is kept beyond it, before anything is worked out.
    if (!entry.value && store && !entry.consulted) {
      entry.consulting ??= stored(period, undefined).then((value) => {
        entry.value ??= value;
        entry.consulted = true;
      });
      return entry.consulting.then(() => get(period));
    }
    const now = clock();
    const age = entry.value ? now.getTime() - entry.value.readAt.getTime() : Infinity;
    if (entry.value && age <= options.maxAgeMs) return Promise.resolve(entry.value);
    if (!entry.reading) {
      entry.reading = refresh(period, now, entry.value).then(
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
      if (entry.value) entry.reading.catch(report);
    }
    return entry.value && age <= options.maxStaleMs ? Promise.resolve(entry.value) : entry.reading;
  };
  return { get };
}

/** A reading as JSON: its dates as `{ "$date": "<ISO>" }`, which {@link fromStoredJson} turns back into dates. */
export function toStoredJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, function (this: Record<string, unknown>, key: string, converted: unknown) {
      const raw = this[key];
      return raw instanceof Date ? { $date: raw.toISOString() } : converted;
    }),
  );
}

/** A reading {@link toStoredJson} kept, with its dates as dates again. */
export function fromStoredJson<Value>(json: unknown): Value {
  return JSON.parse(JSON.stringify(json), (_key, value: unknown) => {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const keys = Object.keys(value);
      const date = (value as { $date?: unknown }).$date;
      if (keys.length === 1 && typeof date === "string") return new Date(date);
    }
    return value;
  }) as Value;
}

/** The database's `sla_snapshots`, under `<prefix><period>`. */
function snapshotStore<Value extends { readAt: Date }>(db: Db, prefix: string): SlaReadingStore<Value> {
  return {
    async load(period) {
      const snapshot = await loadSlaSnapshot(db, `${prefix}${period}`);
      return snapshot ? fromStoredJson<Value>(snapshot.body) : undefined;
    },
    async save(period, value) {
      await saveSlaSnapshot(db, `${prefix}${period}`, { readAt: value.readAt, body: toStoredJson(value) });
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
      onError: (error: unknown) => log.error({ err: error }, "Parley: refreshing the SLA numbers failed; showing the previous ones."),
    };
    store[GLOBAL_KEY] = {
      db,
      cache: createSlaHistoryCache((chosen, now) => readSlaHistory(db, chosen, now), { ...options, store: snapshotStore<SlaHistory>(db, "history:") }),
      // One entry, whatever the period: open work does not depend on it.
      ages: createSlaHistoryCache((_period, now) => readOpenWorkByAge(db, now), { ...options, store: snapshotStore<OpenWorkByAge>(db, "open-by-age:") }),
    };
  }
  return store[GLOBAL_KEY];
}

/**
 * The SLA page's history for a period: read at most once a minute (by this server process, or by
 * another that kept its reading in the database), and never shown more than ten minutes old. Open
 * work is not in it: its table is read live.
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
