import { describe, expect, it } from "vitest";
import { createSlaHistoryCache } from "@/lib/sla-history";
import type { SlaPeriod } from "@/lib/sla-numbers";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;

/** A reader that counts its reads and answers when told to. */
function pendingReader() {
  const reads: { period: SlaPeriod; now: Date; resolve: () => void; reject: (error: Error) => void }[] = [];
  const read = (period: SlaPeriod, now: Date) =>
    new Promise<{ period: SlaPeriod; readAt: Date }>((resolve, reject) => {
      reads.push({ period, now, resolve: () => resolve({ period, readAt: now }), reject });
    });
  return { reads, read };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the SLA page's history", () => {
  it("is read once for everyone asking at once, kept for a minute, then served while one read refreshes it", async () => {
    let now = new Date("2026-11-20T12:00:00.000Z");
    const { reads, read } = pendingReader();
    const errors: unknown[] = [];
    const cache = createSlaHistoryCache(read, { maxAgeMs: MINUTE, maxStaleMs: 10 * MINUTE, now: () => now, onError: (error) => errors.push(error) });

    const first = [cache.get("7d"), cache.get("7d")];
    expect(reads).toHaveLength(1);
    reads[0]!.resolve();
    const [a, b] = await Promise.all(first);
    expect(a).toBe(b);
    expect(a!.readAt).toEqual(now);

    now = new Date(now.getTime() + 59 * SECOND);
    expect(await cache.get("7d")).toBe(a);
    expect(reads).toHaveLength(1);

    // Past a minute: the minute-old history at once, and one read behind it however many ask.
    now = new Date(now.getTime() + 2 * SECOND);
    expect(await cache.get("7d")).toBe(a);
    expect(await cache.get("7d")).toBe(a);
    expect(reads).toHaveLength(2);
    expect(reads[1]!.now).toEqual(now);
    reads[1]!.resolve();
    await settle();
    const refreshed = await cache.get("7d");
    expect(refreshed.readAt).toEqual(now);

    // Each period is its own.
    const day = cache.get("24h");
    expect(reads.at(-1)!.period).toBe("24h");
    reads.at(-1)!.resolve();
    expect((await day).readAt).toEqual(now);

    // A failed refresh keeps what was read before, says so, and the next request tries again.
    now = new Date(now.getTime() + 2 * MINUTE);
    expect(await cache.get("7d")).toBe(refreshed);
    reads.at(-1)!.reject(new Error("database restarting"));
    await settle();
    expect(errors).toHaveLength(1);
    const before = reads.length;
    expect(await cache.get("7d")).toBe(refreshed);
    expect(reads).toHaveLength(before + 1);
    reads.at(-1)!.resolve();
    await settle();

    // Too old to show (ten minutes): waits for a fresh read instead.
    now = new Date(now.getTime() + 11 * MINUTE);
    const fresh = cache.get("7d");
    reads.at(-1)!.resolve();
    expect((await fresh).readAt).toEqual(now);
  });

  it("passes a failed first read on to the caller, and reads again next time", async () => {
    const now = new Date("2026-11-20T12:00:00.000Z");
    const { reads, read } = pendingReader();
    const cache = createSlaHistoryCache(read, { maxAgeMs: MINUTE, maxStaleMs: 10 * MINUTE, now: () => now });
    const failing = cache.get("all");
    reads[0]!.reject(new Error("statement timeout"));
    await expect(failing).rejects.toThrow("statement timeout");
    const again = cache.get("all");
    expect(reads).toHaveLength(2);
    reads[1]!.resolve();
    expect((await again).readAt).toEqual(now);
  });
});
