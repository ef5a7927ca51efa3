import { describe, expect, it } from "vitest";
import { keepLease, type LeaseClock, renewalIntervalMs } from "@/lib/runtime/job-lease";

const START = new Date("2026-11-10T09:00:00.000Z");

/** A lease clock a test moves by hand: its beats fire as the time they are due is passed, in order. */
function manualLeaseClock() {
  let elapsed = 0;
  const beats = new Set<{ intervalMs: number; next: number; beat: () => void }>();
  const clock: LeaseClock & { advance(ms: number): void; beating(): number } = {
    now: () => new Date(START.getTime() + elapsed),
    elapsedMs: () => elapsed,
    every(intervalMs, beat) {
      const entry = { intervalMs, next: elapsed + intervalMs, beat };
      beats.add(entry);
      return () => void beats.delete(entry);
    },
    advance(ms) {
      const until = elapsed + ms;
      for (;;) {
        const due = [...beats].filter((entry) => entry.next <= until).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        elapsed = due.next;
        due.next += due.intervalMs;
        due.beat();
      }
      elapsed = until;
    },
    beating: () => beats.size,
  };
  return clock;
}

describe("a running job's lease", () => {
  const terms = { leaseMs: 30_000, maxJobMs: 15 * 60_000 };

  it("is renewed every third of a lease, each time to a full lease from then", () => {
    const clock = manualLeaseClock();
    const renewals: Date[] = [];
    keepLease(async (until) => void renewals.push(until), terms, clock);
    clock.advance(9_999);
    expect(renewals).toEqual([]);
    clock.advance(1);
    clock.advance(20_000);
    expect(renewals.map((until) => until.getTime() - START.getTime())).toEqual([40_000, 50_000, 60_000]);
  });

  it("is no longer renewed once the job has ended", () => {
    const clock = manualLeaseClock();
    const renewals: Date[] = [];
    const stop = keepLease(async (until) => void renewals.push(until), terms, clock);
    clock.advance(10_000);
    stop();
    clock.advance(60_000);
    expect(renewals).toHaveLength(1);
    expect(clock.beating()).toBe(0);
  });

  it("is left to run out once the job has run longer than it may: a hung job is taken over", () => {
    const clock = manualLeaseClock();
    const renewals: Date[] = [];
    keepLease(async (until) => void renewals.push(until), { leaseMs: 30_000, maxJobMs: 60_000 }, clock);
    clock.advance(60_000);
    expect(renewals).toHaveLength(6);
    clock.advance(10_000);
    clock.advance(120_000);
    expect(renewals).toHaveLength(6);
    expect(clock.beating()).toBe(0);
  });

  it("is tried again at the next beat when a renewal fails", async () => {
    const clock = manualLeaseClock();
    let calls = 0;
    keepLease(
      async () => {
        calls++;
        if (calls === 1) throw new Error("the database is away");
      },
      terms,
      clock,
    );
    clock.advance(10_000);
    await Promise.resolve();
    clock.advance(10_000);
    expect(calls).toBe(2);
  });

  it("is renewed at least every 10 ms, however short", () => {
    expect(renewalIntervalMs(30_000)).toBe(10_000);
    expect(renewalIntervalMs(1_500)).toBe(500);
    expect(renewalIntervalMs(12)).toBe(10);
  });
});
