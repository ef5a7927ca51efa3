import { describe, expect, it } from "vitest";
import { formatDuration, formatUtc, readClock } from "@/lib/sla-clock";

const opened = new Date("2026-12-01T09:00:00Z");
const due = new Date("2026-12-03T09:00:00Z"); // a two-day window

describe("the SLA clock", () => {
  it("shows the time left while there is plenty", () => {
    expect(readClock(opened, due, new Date("2026-12-01T10:30:00Z"))).toEqual({
      band: "on-time",
      remainingMs: (46 * 60 + 30) * 60_000,
      label: "1d 22h left",
    });
  });

  it("turns at risk when under a quarter of the window is left", () => {
    const reading = readClock(opened, due, new Date("2026-12-02T22:00:00Z"));
    expect(reading.band).toBe("at-risk");
    expect(reading.label).toBe("11h left");
  });

  it("turns at risk in the last hour even of a long window", () => {
    const longDue = new Date("2026-12-31T09:00:00Z");
    expect(readClock(opened, longDue, new Date("2026-12-31T08:15:00Z")).band).toBe("at-risk");
  });

  it("shows negative time once the deadline has passed", () => {
    const reading = readClock(opened, due, new Date("2026-12-03T12:10:00Z"));
    expect(reading).toEqual({ band: "breached", remainingMs: -(3 * 60 + 10) * 60_000, label: "-3h 10m" });
  });

  it("is breached at the very moment of the deadline", () => {
    expect(readClock(opened, due, due).band).toBe("breached");
  });

  it("says so when a wait has no deadline", () => {
    expect(readClock(opened, null, new Date())).toEqual({ band: "no-deadline", remainingMs: null, label: "no deadline" });
  });
});

describe("durations", () => {
  it("use the two largest units", () => {
    expect(formatDuration(15 * 3_600_000)).toBe("15h");
    expect(formatDuration(15 * 3_600_000 + 5 * 60_000)).toBe("15h 5m");
    expect(formatDuration(2 * 86_400_000 + 3 * 3_600_000 + 59 * 60_000)).toBe("2d 3h");
    expect(formatDuration(42 * 60_000)).toBe("42m");
    expect(formatDuration(20_000)).toBe("<1m");
  });

  it("writes a deadline in UTC and says so, whatever the process's own time zone", () => {
    // The browser hydrating the clock may be anywhere: the server's words must be the browser's too.
    const zone = process.env.TZ;
    process.env.TZ = "America/New_York";
    try {
      expect(new Date("2026-12-04T04:30:00Z").getHours()).toBe(23);
      expect(formatUtc(new Date("2026-12-03T23:30:00-05:00"))).toBe("4 Dec 2026, 04:30 UTC");
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
