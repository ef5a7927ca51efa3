"use client";

import { useEffect, useState } from "react";
import { formatUtc, readClock } from "@/lib/sla-clock";

const TICK_MS = 30_000;

/**
 * A wait's deadline as a clock: time left, amber when at risk, negative once breached. It starts at
 * the server's time (so the first paint matches) and keeps counting in the browser.
 */
export function SlaClock({ openedAt, dueAt, renderedAt }: { openedAt: string; dueAt: string | null; renderedAt: string }) {
  const [now, setNow] = useState(() => new Date(renderedAt));
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const reading = readClock(new Date(openedAt), dueAt ? new Date(dueAt) : null, now);
  return (
    <time
      className={`sla-clock ${reading.band}`}
      dateTime={dueAt ?? undefined}
      title={dueAt ? `Due ${formatUtc(new Date(dueAt))}` : undefined}
      data-band={reading.band}
    >
      {reading.label}
    </time>
  );
}
