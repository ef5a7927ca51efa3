import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { countAnsweredByWait, listLongestWaits, readSlaReport, type SlaNumbers } from "@/db/queries/sla";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { periodStart, TIME_TO_ANSWER_BUCKETS } from "@/lib/sla-numbers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = new Date("2026-11-20T12:00:00.000Z");

/** One recorded wait, as the test seeds it. */
interface SeededSlot {
  workflow: string;
  agent: string | null;
  status: "finished" | "expired" | "open" | "closed";
  /** Who answered (finished), or whom it waited on (expired/open). */
  person: "sam" | "priya";
  waitMs: number;
  /** How long the slot was given. */
  windowMs: number;
  /** When it finished, as ms before NOW. */
  endedAgoMs: number;
}

/** A history with ties, several groups, breaches both ways, and rows the period or status must leave out. */
function history(): SeededSlot[] {
  const slots: SeededSlot[] = [];
  const waits = [7, 45, 90, 130, 200, 260, 300, 420, 600, 900, 1_100, 1_500, 2_000, 2_600];
  waits.forEach((minutes, index) => {
    slots.push({
      workflow: index % 3 === 0 ? "Onboarding" : "ReviewClaim",
      agent: index % 3 === 0 ? null : "Auditor",
      status: "finished",
      person: index % 2 === 0 ? "sam" : "priya",
      waitMs: minutes * MINUTE,
      // The later ones were given less time than they took: answered late.
      windowMs: index >= 11 ? 20 * HOUR : 2 * DAY,
      endedAgoMs: (index + 1) * 5 * HOUR,
    });
  });
  slots.push(
    { workflow: "ReviewClaim", agent: "Auditor", status: "expired", person: "sam", waitMs: 2 * DAY, windowMs: 2 * DAY, endedAgoMs: 3 * HOUR },
    { workflow: "Onboarding", agent: null, status: "expired", person: "priya", waitMs: DAY, windowMs: DAY, endedAgoMs: 30 * HOUR },
    // Outside the last 7 days.
    { workflow: "ReviewClaim", agent: "Auditor", status: "finished", person: "sam", waitMs: 15 * HOUR, windowMs: 2 * DAY, endedAgoMs: 9 * DAY },
    // Still open, and closed with nothing: not history.
    { workflow: "ReviewClaim", agent: "Auditor", status: "open", person: "sam", waitMs: 0, windowMs: 2 * DAY, endedAgoMs: 0 },
    { workflow: "ReviewClaim", agent: "Auditor", status: "closed", person: "priya", waitMs: HOUR, windowMs: 2 * DAY, endedAgoMs: HOUR },
  );
  return slots;
}

async function seed(db: Db, slots: readonly SeededSlot[]) {
  const [sam, priya] = await insertUsersIfAbsent(db, [
    { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
    { email: "priya@parley.test", name: "Priya Shah", roles: ["assignee"] },
  ]);
  const ids = { sam: sam!.id, priya: priya!.id };
  for (const [index, slot] of slots.entries()) {
    const taskId = randomUUID();
    const instanceId = randomUUID();
    const slotId = randomUUID();
    const finishedAt = new Date(NOW.getTime() - slot.endedAgoMs);
    const openedAt = new Date(finishedAt.getTime() - slot.waitMs);
    const dueAt = new Date(openedAt.getTime() + slot.windowMs);
    const ended = slot.status !== "open";
    await db.execute(sql`insert into workflow_instances (id, workflow, task_id, state, status) values (${instanceId}, ${slot.workflow}, ${taskId}, 'Waiting', 'waiting')`);
    await db.execute(
      sql`insert into slots (id, workflow_instance_id, workflow, task_id, state, event, assignee_id, candidate_ids, status, opened_at, due_at, finished_by, finished_at, wait_ms, agent)
          values (${slotId}, ${instanceId}, ${slot.workflow}, ${taskId}, 'Waiting', 'Answered', ${ids[slot.person]}, ${`{${ids.sam},${ids.priya}}`}::uuid[],
            ${slot.status}, ${openedAt.toISOString()}::timestamptz, ${dueAt.toISOString()}::timestamptz,
            ${slot.status === "finished" ? ids[slot.person] : null}, ${ended ? finishedAt.toISOString() : null}::timestamptz, ${ended ? slot.waitMs : null}, ${slot.agent})`,
    );
    await db.execute(
      sql`insert into asks (task_id, agent, workflow, slot_id, title, spec, status, asked_at)
          values (${taskId}, ${slot.agent}, ${slot.workflow}, ${slotId}, ${`Question ${index}`}, ${JSON.stringify({ fields: [] })}::jsonb, 'open', ${openedAt.toISOString()}::timestamptz)`,
    );
  }
  return ids;
}

/** percentile_cont, written out: linear interpolation between the closest ranks. */
function percentile(sorted: readonly number[], fraction: number): number | null {
  if (sorted.length === 0) return null;
  const position = fraction * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

function expected(slots: readonly SeededSlot[]): SlaNumbers {
  const answered = slots.filter((slot) => slot.status === "finished");
  const waits = answered.map((slot) => slot.waitMs).sort((a, b) => a - b);
  const late = answered.filter((slot) => slot.waitMs > slot.windowMs).length;
  const expiredCount = slots.filter((slot) => slot.status === "expired").length;
  return {
    total: slots.length,
    answered: answered.length,
    withinSla: answered.length - late,
    breaches: expiredCount + late,
    p50: percentile(waits, 0.5),
    p90: percentile(waits, 0.9),
    p95: percentile(waits, 0.95),
  };
}

function close(numbers: SlaNumbers) {
  const round = (value: number | null) => (value === null ? null : Math.round(value * 1000) / 1000);
  return { ...numbers, p50: round(numbers.p50), p90: round(numbers.p90), p95: round(numbers.p95) };
}

describe.each(DATABASE_KINDS)("SLA numbers on %s", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("match the seeded history, overall and by workflow, agent and person, over a period", async () => {
    database = await createTestDatabase(kind);
    const slots = history();
    const ids = await seed(database.db, slots);
    const since = periodStart("7d", NOW)!;
    const inPeriod = slots.filter((slot) => (slot.status === "finished" || slot.status === "expired") && slot.endedAgoMs <= 7 * DAY);

    const report = await readSlaReport(database.db, since, NOW);
    expect(close(report.overall)).toEqual(close(expected(inPeriod)));
    expect(report.overall.total).toBe(16);

    for (const workflow of ["ReviewClaim", "Onboarding"]) {
      const group = report.byWorkflow.find((entry) => entry.key === workflow);
      expect(close(group!), workflow).toMatchObject(close(expected(inPeriod.filter((slot) => slot.workflow === workflow))));
    }
    const auditor = report.byAgent.find((entry) => entry.key === "Auditor");
    expect(close(auditor!)).toMatchObject(close(expected(inPeriod.filter((slot) => slot.agent === "Auditor"))));
    const noAgent = report.byAgent.find((entry) => entry.key === null);
    expect(close(noAgent!)).toMatchObject(close(expected(inPeriod.filter((slot) => slot.agent === null))));
    for (const person of ["sam", "priya"] as const) {
      const group = report.byPerson.find((entry) => entry.key === ids[person]);
      expect(group?.label).toBe(person === "sam" ? "Sam Rivera" : "Priya Shah");
      expect(close(group!), person).toMatchObject(close(expected(inPeriod.filter((slot) => slot.person === person))));
    }

    // All time takes in the answer from nine days ago, and nothing else.
    const allTime = await readSlaReport(database.db, null, NOW);
    expect(allTime.overall.total).toBe(17);
    expect(close(allTime.overall)).toEqual(close(expected(slots.filter((slot) => slot.status === "finished" || slot.status === "expired"))));
  });

  it("say who a long wait was for, and count answers into bars", async () => {
    database = await createTestDatabase(kind);
    const slots = history();
    await seed(database.db, slots);
    const [longest, second] = await listLongestWaits(database.db, null, NOW, 2);
    expect(longest).toMatchObject({ status: "expired", waitMs: 2 * DAY, personName: "Sam Rivera", workflow: "ReviewClaim" });
    expect(second).toMatchObject({ status: "finished", waitMs: 2_600 * MINUTE, personName: "Priya Shah", headline: "Question 13" });
    const fifteenHours = await listLongestWaits(database.db, null, NOW, 20);
    // "It waited 15 hours for Sam": the answer from nine days ago, beside Priya's recent one of the same length.
    expect(fifteenHours.filter((row) => row.waitMs === 15 * HOUR).map((row) => row.personName).sort()).toEqual(["Priya Shah", "Sam Rivera"]);

    const bars = await countAnsweredByWait(database.db, TIME_TO_ANSWER_BUCKETS.bounds, periodStart("7d", NOW), NOW);
    const answered = slots.filter((slot) => slot.status === "finished" && slot.endedAgoMs <= 7 * DAY).map((slot) => slot.waitMs);
    const expectedBars = TIME_TO_ANSWER_BUCKETS.labels.map((_, index) => {
      const low = index === 0 ? -Infinity : TIME_TO_ANSWER_BUCKETS.bounds[index - 1]!;
      const high = TIME_TO_ANSWER_BUCKETS.bounds[index] ?? Infinity;
      return answered.filter((wait) => wait >= low && wait < high).length;
    });
    expect(bars).toEqual(expectedBars);
    expect(bars.reduce((sum, count) => sum + count, 0)).toBe(14);
  });
});
