import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { readOperationalCounts } from "@/db/queries/metrics";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { createMetrics } from "@/lib/metrics";
import { readSlaHistory } from "@/lib/sla-history";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { type SeededWait, seedWaits } from "../inbox/seed-waits";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");

/** The value of one series in Prometheus's text format, or undefined when the scrape has no such series. */
function series(body: string, name: string, labels: string): number | undefined {
  const line = body.split("\n").find((candidate) => candidate.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

describe.each(DATABASE_KINDS)("the metrics (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("show open and overdue questions by workflow and by team, and the last day's time to answer and ends with nothing", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [sam] = await insertUsersIfAbsent(db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    const wait = (workflow: string, dueInMs: number | null): SeededWait => ({ assignee: sam!.id, candidates: [sam!.id], workflow, askedAgoMs: 2 * HOUR, dueInMs });
    const answered = (workflow: string, waitedHours: number): SeededWait => ({
      ...wait(workflow, HOUR),
      askedAgoMs: (waitedHours + 1) * HOUR,
      slotStatus: "finished",
      status: "answered",
      finishedBy: sam!.id,
      finishedAgoMs: HOUR,
      answeredBy: sam!.id,
      answeredAgoMs: HOUR,
    });
    const [late, , onTime] = await seedWaits(db, NOW, [
      wait("ReviewClaim", -HOUR),
      wait("ReviewClaim", HOUR),
      wait("Onboarding", null),
      answered("ReviewClaim", 1),
      answered("ReviewClaim", 3),
      { ...wait("Onboarding", HOUR), slotStatus: "closed", status: "nothing", reason: "refused", finishedAgoMs: HOUR },
    ]);
    const [finance] = await queryRows<{ id: string }>(db, sql`insert into groups (name) values ('finance') returning id`);
    await db.execute(sql`update slots set candidate_group_ids = array[${finance!.id}::uuid] where id in (${late!.slotId}::uuid, ${onTime!.slotId}::uuid)`);

    const metrics = createMetrics({ counts: () => readOperationalCounts(db, NOW), lastDay: () => readSlaHistory(db, "24h", NOW) });
    const { contentType, body } = await metrics.render();

    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(series(body, "parley_open_questions", 'workflow="ReviewClaim"')).toBe(2);
    expect(series(body, "parley_overdue_questions", 'workflow="ReviewClaim"')).toBe(1);
    expect(series(body, "parley_open_questions", 'workflow="Onboarding"')).toBe(1);
    expect(series(body, "parley_overdue_questions", 'workflow="Onboarding"')).toBe(0);
    expect(series(body, "parley_team_open_questions", 'team="finance"')).toBe(2);
    expect(series(body, "parley_team_overdue_questions", 'team="finance"')).toBe(1);
    expect(series(body, "parley_answered_questions_24h", 'workflow="ReviewClaim"')).toBe(2);
    expect(series(body, "parley_answer_wait_seconds", 'workflow="ReviewClaim",quantile="0.5"')).toBe(2 * 3600);
    expect(series(body, "parley_nothing_24h", 'reason="refused"')).toBe(1);
    expect(series(body, "parley_nothing_24h", 'reason="away"')).toBe(0);
    expect(body).toContain("\nparley_database_reachable 1\n");
  });

  it("show the jobs queued, running and failed", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [sam] = await insertUsersIfAbsent(db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    await seedWaits(db, NOW, [{ assignee: sam!.id, candidates: [sam!.id], workflow: "ReviewClaim", askedAgoMs: HOUR, dueInMs: HOUR }]);
    await db.execute(sql`insert into jobs (kind, workflow_instance_id, state, run_at, status)
                         select 'event', wi.id, wi.state, now(), each.status from workflow_instances wi, (values ('failed'), ('failed'), ('queued'), ('done')) as each(status)`);
    const metrics = createMetrics({ counts: () => readOperationalCounts(db, NOW), lastDay: () => readSlaHistory(db, "24h", NOW) });
    const { body } = await metrics.render();
    expect([series(body, "parley_jobs", 'status="queued"'), series(body, "parley_jobs", 'status="running"'), series(body, "parley_jobs", 'status="failed"')]).toEqual([1, 0, 2]);
  });

  it("still answer a scrape when the database cannot be read, saying so instead of showing old figures", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [sam] = await insertUsersIfAbsent(db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    await seedWaits(db, NOW, [{ assignee: sam!.id, candidates: [sam!.id], workflow: "ReviewClaim", askedAgoMs: HOUR, dueInMs: HOUR }]);
    const metrics = createMetrics({ counts: () => readOperationalCounts(db, NOW), lastDay: () => readSlaHistory(db, "24h", NOW) });
    expect(series((await metrics.render()).body, "parley_open_questions", 'workflow="ReviewClaim"')).toBe(1);

    await database.close();
    database = undefined;
    const { body } = await metrics.render();
    expect(body).toContain("\nparley_database_reachable 0\n");
    expect(series(body, "parley_open_questions", 'workflow="ReviewClaim"')).toBeUndefined();
    expect(body).toContain("parley_process_cpu_seconds_total");
  });
});
