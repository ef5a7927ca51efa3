import type { Duration } from "./types";

/** The span in milliseconds. */
export function durationToMilliseconds(duration: Duration): number {
  return (
    (duration.days ?? 0) * 86_400_000 +
    (duration.hours ?? 0) * 3_600_000 +
    (duration.minutes ?? 0) * 60_000 +
    (duration.seconds ?? 0) * 1_000 +
    (duration.milliseconds ?? 0)
  );
}
