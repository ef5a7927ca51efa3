"use client";

import { useSyncExternalStore } from "react";
import { formatUtc } from "@/lib/sla-clock";

const FORMATS = {
  /** "6 Dec 2026, 02:40 CET" */
  moment: { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" },
  /** "6 Dec 2026, 02:40:07 CET": to the second, for a log. */
  second: { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", timeZoneName: "short" },
  /** "02:40:07": the time of day alone, for a list of one day's events. */
  clock: { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

/** Nothing to subscribe to: the reader's time zone does not change under a page. */
const subscribe = () => () => {};

/**
 * A moment as the reader reads time: in their browser's locale and time zone, with the zone named
 * ("6 Dec 2026, 02:40 CET"). The server does not know the reader's zone, so the page is sent (and
 * hydrated) with the moment in UTC, said as such, and the browser rewrites it at once.
 */
export function LocalTime({ at, format = "moment" }: { at: string; format?: keyof typeof FORMATS }) {
  const moment = new Date(at);
  const text = useSyncExternalStore(
    subscribe,
    () => new Intl.DateTimeFormat(undefined, FORMATS[format]).format(moment),
    () => (format === "clock" ? `${at.slice(11, 19)} UTC` : formatUtc(moment)),
  );
  return (
    <time dateTime={at} title={formatUtc(moment)}>
      {text}
    </time>
  );
}
