import { LocalTime } from "@/components/local-time";
import { formatDuration } from "@/lib/sla-clock";

/** A moment in the reader's time zone, with how long ago it was (or how soon it comes): "3 Dec 2026, 10:00 CET (2h 5m ago)". */
export function When({ at, now }: { at: Date; now: Date }) {
  const ago = now.getTime() - at.getTime();
  return (
    <>
      <LocalTime at={at.toISOString()} /> <span className="muted">({ago >= 0 ? `${formatDuration(ago)} ago` : `in ${formatDuration(-ago)}`})</span>
    </>
  );
}
