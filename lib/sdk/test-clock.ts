/** A clock a test moves by hand. */
export function manualClock(start = new Date("2026-11-10T09:00:00.000Z")) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(milliseconds: number) {
      current += milliseconds;
    },
  };
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
