import { afterEach, describe, expect, it } from "vitest";
import { countOpenSlotsByAge, listOpenSlots } from "@/db/queries/sla";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { readClock } from "@/lib/sla-clock";
import { OPEN_AGE_BUCKETS } from "@/lib/sla-numbers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { type SeededWait, seedWaits } from "../inbox/seed-waits";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("outstanding work on the SLA page (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("pages through every open wait soonest due first, finds the at-risk ones however many breached ones come before them, and counts them by age", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [sam] = await insertUsersIfAbsent(db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    const wait = (askedAgoMs: number, dueInMs: number | null): SeededWait => ({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs, dueInMs });
    const waits: SeededWait[] = [
      // Breached, five of them.
      ...[1, 2, 3, 4, 5].map((hours) => wait(2 * DAY + hours * HOUR, -hours * HOUR)),
      // At risk: under an hour left; just under a quarter of the window left, of four days and of fifty hours.
      wait(2 * DAY - 50 * MINUTE, 50 * MINUTE),
      wait(3 * DAY, DAY - MINUTE),
      wait(40 * HOUR, 10 * HOUR - MINUTE),
      // On time: more than an hour and more than a quarter left (the last only just).
      wait(HOUR, 2 * DAY - HOUR),
      wait(10 * HOUR, 30 * HOUR),
      wait(MINUTE, 3 * HOUR),
      wait(30 * HOUR, 10 * HOUR + MINUTE),
      // No deadline.
      wait(5 * DAY, null),
    ];
    await seedWaits(db, NOW, waits);

    const everything = await listOpenSlots(db, {}, NOW);
    expect(everything).toHaveLength(13);
    const pages = [];
    let after: string | undefined;
    for (;;) {
      const page = await listOpenSlots(db, {}, NOW, 4, after);
      pages.push(page);
      if (page.length < 4) break;
      after = page.at(-1)!.id;
    }
    expect(pages.map((page) => page.length)).toEqual([4, 4, 4, 1]);
    expect(pages.flat().map((slot) => slot.id)).toEqual(everything.map((slot) => slot.id));
    expect(everything.at(-1)!.dueAt).toBeNull();
    expect(everything.map((slot) => slot.dueAt?.getTime() ?? Infinity)).toEqual(everything.map((slot) => slot.dueAt?.getTime() ?? Infinity).sort((a, b) => a - b));

    const bandOf = (slot: (typeof everything)[number]) => readClock(slot.openedAt, slot.dueAt, NOW).band;
    // Two rows a page: the five breached ones come first in due order, and the at-risk ones are still found.
    const atRisk = await listOpenSlots(db, { atRiskOnly: true }, NOW, 2);
    expect(atRisk.map(bandOf)).toEqual(["at-risk", "at-risk"]);
    const allAtRisk = (await listOpenSlots(db, { atRiskOnly: true }, NOW)).filter((slot) => bandOf(slot) === "at-risk");
    expect(allAtRisk.map((slot) => slot.id)).toEqual(everything.filter((slot) => bandOf(slot) === "at-risk").map((slot) => slot.id));
    expect(allAtRisk).toHaveLength(3);

    const breached = await listOpenSlots(db, { breachedOnly: true }, NOW, 3);
    expect(breached.map(bandOf)).toEqual(["breached", "breached", "breached"]);
    const breachedRest = await listOpenSlots(db, { breachedOnly: true }, NOW, 3, breached.at(-1)!.id);
    expect(breachedRest.map(bandOf)).toEqual(["breached", "breached"]);

    // Open work by age: each wait in the bar whose lower bound its age has reached (one opened exactly an hour ago is in "1–4h").
    const bars = OPEN_AGE_BUCKETS.bounds.length + 1;
    const expected = Array.from({ length: bars }, () => 0);
    for (const seeded of waits) expected[OPEN_AGE_BUCKETS.bounds.filter((bound) => seeded.askedAgoMs >= bound).length]! += 1;
    expect(await countOpenSlotsByAge(db, OPEN_AGE_BUCKETS.bounds, NOW)).toEqual(expected);
    expect(expected).toEqual([1, 1, 1, 3, 7]);
  });
});
