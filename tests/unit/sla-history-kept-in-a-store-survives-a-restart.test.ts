import { describe, expect, it } from "vitest";
import { createSlaHistoryCache, type SlaReadingStore } from "@/lib/sla-history";
import type { SlaPeriod } from "@/lib/sla-numbers";

const MINUTE = 60_000;
const OPTIONS = { maxAgeMs: MINUTE, maxStaleMs: 10 * MINUTE };
type Reading = { period: SlaPeriod; readAt: Date; by: string };

/** A store shared by "processes" (caches), as the database's table is. */
function sharedStore(): SlaReadingStore<Reading> & { kept: Map<SlaPeriod, Reading>; saves: number } {
  const kept = new Map<SlaPeriod, Reading>();
  return {
    kept,
    saves: 0,
    async load(period) {
      return kept.get(period);
    },
    async save(period, value) {
      this.saves++;
      const current = kept.get(period);
      if (!current || current.readAt < value.readAt) kept.set(period, value);
    },
  };
}

/** A process's reader: counts its reads, each answering at once. */
function reader(by: string) {
  const reads: Date[] = [];
  return { reads, read: async (period: SlaPeriod, now: Date): Promise<Reading> => (reads.push(now), { period, readAt: now, by }) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the SLA history kept in a store", () => {
  it("is shown at once by a restarted process when younger than ten minutes, and refreshed behind it", async () => {
    const store = sharedStore();
    let now = new Date("2026-12-05T12:00:00.000Z");
    const before = reader("before");
    await createSlaHistoryCache(before.read, { ...OPTIONS, store, now: () => now }).get("7d");
    expect(store.kept.get("7d")?.by).toBe("before");

    now = new Date(now.getTime() + 5 * MINUTE);
    const after = reader("after");
    const restarted = createSlaHistoryCache(after.read, { ...OPTIONS, store, now: () => now });
    const first = await restarted.get("7d");
    expect(first.by).toBe("before");
    await settle();
    // Five minutes old: shown, and one read behind it, which the store keeps for the next process.
    expect(after.reads).toHaveLength(1);
    expect((await restarted.get("7d")).by).toBe("after");
    expect(store.kept.get("7d")?.by).toBe("after");
  });

  it("is not shown when older than ten minutes: the first visitor waits for a new reading", async () => {
    const store = sharedStore();
    let now = new Date("2026-12-05T12:00:00.000Z");
    await createSlaHistoryCache(reader("before").read, { ...OPTIONS, store, now: () => now }).get("7d");
    now = new Date(now.getTime() + 11 * MINUTE);
    const after = reader("after");
    const first = await createSlaHistoryCache(after.read, { ...OPTIONS, store, now: () => now }).get("7d");
    expect(first.by).toBe("after");
    expect(after.reads).toEqual([now]);
  });

  it("is taken by a process whose own reading is a minute old when another process read it since, instead of reading again", async () => {
    const store = sharedStore();
    let now = new Date("2026-12-05T12:00:00.000Z");
    const one = reader("one");
    const two = reader("two");
    const first = createSlaHistoryCache(one.read, { ...OPTIONS, store, now: () => now });
    const second = createSlaHistoryCache(two.read, { ...OPTIONS, store, now: () => now });
    await first.get("7d");
    now = new Date(now.getTime() + 30_000);
    expect((await second.get("7d")).by).toBe("one");
    now = new Date(now.getTime() + 50_000);
    // The second process's kept reading is 80 s old: it refreshes; nobody has read since, so it reads.
    await second.get("7d");
    await settle();
    expect(two.reads).toHaveLength(1);
    now = new Date(now.getTime() + 20_000);
    // The first's is 100 s old: the second's reading is 20 s old, so the first takes it without reading.
    await first.get("7d");
    await settle();
    expect(one.reads).toHaveLength(1);
    expect((await first.get("7d")).by).toBe("two");
  });

  it("is passed over, and the failure reported, when the store cannot be read or written", async () => {
    const errors: unknown[] = [];
    const broken: SlaReadingStore<Reading> = {
      load: () => Promise.reject(new Error("no table")),
      save: () => Promise.reject(new Error("read-only")),
    };
    const own = reader("own");
    const value = await createSlaHistoryCache(own.read, { ...OPTIONS, store: broken, onError: (error) => errors.push(error) }).get("24h");
    expect(value.by).toBe("own");
    expect(errors.map((error) => (error as Error).message)).toEqual(["no table", "read-only"]);
  });
});
