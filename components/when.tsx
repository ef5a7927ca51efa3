import { formatDuration, formatUtc } from "@/lib/sla-clock";

/** A past moment as the admin pages write it: "3 Dec 2026, 09:00 UTC (2h 5m ago)". */
export function When({ at, now }: { at: Date; now: Date }) {
  return (
    <time dateTime={at.toISOString()} title={at.toISOString()}>
      {formatUtc(at)} <span className="muted">({formatDuration(now.getTime() - at.getTime())} ago)</span>
    </time>
  );
}
