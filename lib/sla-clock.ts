/** How a wait stands against its deadline. */
export type ClockBand = "on-time" | "at-risk" | "breached" | "no-deadline";

/** What an SLA clock shows: the time left (negative once breached) and its colour band. */
export interface ClockReading {
  band: ClockBand;
  /** Milliseconds left; negative once the deadline has passed; null without a deadline. */
  remainingMs: number | null;
  /** "2d 4h left", "45m left", "-3h 10m" once breached, "no deadline". */
  label: string;
}

/** A wait is at risk once less than this share of its window is left… */
const AT_RISK_SHARE = 0.25;
/** …or less than this long, whichever comes first. */
const AT_RISK_MS = 60 * 60 * 1000;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "2d 4h", "3h 10m", "45m", "<1m": the two largest units, never more. */
export function formatDuration(milliseconds: number): string {
  const ms = Math.abs(milliseconds);
  if (ms < MINUTE) return "<1m";
  const days = Math.floor(ms / DAY);
  const hours = Math.floor((ms % DAY) / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  if (days > 0) return hours > 0 ? `${days}d ${hours}h` : `${days}d`;
  if (hours > 0) return minutes > 0 ? `${hours}h ${minutes}m` : `${hours}h`;
  return `${minutes}m`;
}

const UTC_FORMAT = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" });

/**
 * "3 Dec 2026, 09:00 UTC": a moment written the same by the server and by every browser, whatever
 * their locale and time zone, so a page hydrates to what the server sent and never shows a local
 * time without saying whose.
 */
export function formatUtc(moment: Date): string {
  return `${UTC_FORMAT.format(moment)} UTC`;
}

/** Reads the clock of a wait opened at `openedAt` and due at `dueAt`, as of `now`. */
export function readClock(openedAt: Date, dueAt: Date | null, now: Date): ClockReading {
  if (!dueAt) return { band: "no-deadline", remainingMs: null, label: "no deadline" };
  const remainingMs = dueAt.getTime() - now.getTime();
  if (remainingMs <= 0) return { band: "breached", remainingMs, label: `-${formatDuration(remainingMs)}` };
  const windowMs = Math.max(dueAt.getTime() - openedAt.getTime(), 1);
  const atRisk = remainingMs < AT_RISK_MS || remainingMs / windowMs < AT_RISK_SHARE;
  return { band: atRisk ? "at-risk" : "on-time", remainingMs, label: `${formatDuration(remainingMs)} left` };
}
