import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { readSlaPeriod, type SlaGroup, type SlaNumbers } from "@/db/queries/sla";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { periodStart, type SlaPeriod, TIME_TO_ANSWER_BUCKETS } from "@/lib/sla-numbers";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

const NOW = new Date("2026-11-20T12:00:00.000Z");

/**
 * The SLA numbers are read in one statement that collects each group's waits by hashing (not the
 * ordered-set aggregates over sorted rows they were read with before): they must be what those gave.
 * The reference here is the statement the numbers were read with before, over the same waits.
 */
const REFERENCE = (since: Date | null) => sql`
  with history as materialized (
    select s.workflow, s.status, s.wait_ms, s.due_at, s.finished_at, coalesce(s.finished_by, s.assignee_id) as person_id, s.agent, s.candidate_group_ids
      from slots s
     where s.status in ('finished', 'expired') and s.finished_at <= ${NOW.toISOString()}::timestamptz
       ${since ? sql`and s.finished_at >= ${since.toISOString()}::timestamptz` : sql``}
  )
  select 1 - grouping(workflow) as by_workflow, 1 - grouping(agent) as by_agent, 1 - grouping(person_id) as by_person, 0 as by_team,
         workflow, agent, person_id::text as person_id, null as team_id, ${sql.raw(NUMBERS)}
    from history group by grouping sets ((), (workflow), (agent), (person_id))
  union all
  select 0, 0, 0, 1, null, null, null, team_id::text, ${sql.raw(NUMBERS)}
    from history cross join lateral unnest(candidate_group_ids) as team_id group by team_id`;
const NUMBERS = `count(*) as total, count(*) filter (where status = 'finished') as answered,
  count(*) filter (where status = 'finished' and (due_at is null or finished_at <= due_at)) as within_sla,
  count(*) filter (where status = 'expired' or (due_at is not null and finished_at > due_at)) as breaches,
  percentile_cont(0.5) within group (order by wait_ms) filter (where status = 'finished') as p50,
  percentile_cont(0.9) within group (order by wait_ms) filter (where status = 'finished') as p90,
  percentile_cont(0.95) within group (order by wait_ms) filter (where status = 'finished') as p95`;

type Row = { by_workflow: number; by_agent: number; by_person: number; by_team: number; workflow: string | null; agent: string | null; person_id: string | null; team_id: string | null } & Record<
  "total" | "answered" | "within_sla" | "breaches" | "p50" | "p90" | "p95",
  number | string | null
>;

function numbers(row: Row): SlaNumbers {
  const number = (value: number | string | null) => (value === null ? null : Number(value));
  return { total: Number(row.total), answered: Number(row.answered), withinSla: Number(row.within_sla), breaches: Number(row.breaches), p50: number(row.p50), p90: number(row.p90), p95: number(row.p95) };
}

/** A group's key and numbers, to compare regardless of order and labels. */
const keyed = (groups: readonly SlaGroup[]) =>
  groups.map((group) => ({ key: group.key, total: group.total, answered: group.answered, withinSla: group.withinSla, breaches: group.breaches, p50: group.p50, p90: group.p90, p95: group.p95 })).sort((a, b) => String(a.key).localeCompare(String(b.key)));

describe.each(DATABASE_KINDS)("the SLA numbers (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("are those percentile_cont gives over every wait of the period, overall and by workflow, agent, person and team", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const people = await insertUsersIfAbsent(
      db,
      ["ada", "bo", "cy", "dee", "eve", "fay"].map((name) => ({ email: `${name}@parley.test`, name: `${name[0]!.toUpperCase()}${name.slice(1)}`, roles: ["assignee" as const] })),
    );
    const ids = `{${people.map((person) => person!.id).join(",")}}`;
    const [first, second, third] = await queryRows<{ id: string }>(db, sql`insert into groups (name) values ('finance'), ('ops'), ('legal') returning id`);
    // 600 waits of three workflows and agents (and none), six people, three teams (some put to two), every status, some without a deadline, ties among the waits, over twenty days.
    const series = sql`generate_series(0, 599) as i`;
    await db.execute(sql`insert into workflow_instances (id, workflow, task_id, state, status)
      select md5('instance' || i)::uuid, 'ReviewClaim', md5('task' || i)::uuid, 'Waiting', 'waiting' from ${series}`);
    await db.execute(sql`insert into slots (id, workflow_instance_id, workflow, task_id, state, event, assignee_id, candidate_group_ids, status, opened_at, due_at, finished_by, finished_at, wait_ms, agent)
      select md5('slot' || i)::uuid, md5('instance' || i)::uuid, (array['ReviewClaim', 'DeployApproval', 'ApiAsk'])[1 + i % 3], md5('task' || i)::uuid, 'Waiting', 'Answered',
             case when i % 11 = 0 then null else (${ids}::uuid[])[1 + i % 6] end,
             case i % 4 when 0 then '{}'::uuid[] when 1 then array[${first!.id}::uuid] when 2 then array[${second!.id}::uuid] else array[${first!.id}::uuid, ${third!.id}::uuid] end,
             status, finished_at - wait * interval '1 millisecond', case when i % 9 = 0 then null else finished_at - wait * interval '1 millisecond' + ((i * 13) % 48) * interval '1 hour' end,
             case when status = 'finished' then (${ids}::uuid[])[1 + (i * 5) % 6] end, case when status <> 'open' then finished_at end, case when status <> 'open' then wait end,
             (array['Auditor', 'ReleaseChecker', null])[1 + (i / 3) % 3]
        from (select i, (array['finished', 'finished', 'finished', 'expired', 'closed', 'cancelled', 'open'])[1 + (i * 7 + i / 7) % 7] as status,
                     ${NOW.toISOString()}::timestamptz - ((i * 7919) % (20 * 24 * 60)) * interval '1 minute' as finished_at,
                     ((i * 104729) % (3 * 24 * 60)) * 60000::bigint as wait
                from ${series}) w`);
    await db.execute(sql`insert into asks (id, task_id, workflow, slot_id, title, spec, status, reason, asked_at)
      select md5('question' || i)::uuid, md5('task' || i)::uuid, 'ReviewClaim', md5('slot' || i)::uuid, 'Question ' || i, '{"fields": []}'::jsonb,
             case s.status when 'finished' then 'answered' when 'open' then 'open' else 'nothing' end,
             case s.status when 'closed' then (array['refused', 'away', 'unavailable'])[1 + i % 3] when 'expired' then 'expired' when 'cancelled' then 'cancelled' end,
             s.opened_at
        from ${series} join slots s on s.id = md5('slot' || i)::uuid`);

    for (const period of ["24h", "7d", "all"] as SlaPeriod[]) {
      const since = periodStart(period, NOW);
      const { report } = await readSlaPeriod(db, since, NOW, { bounds: TIME_TO_ANSWER_BUCKETS.bounds });
      const reference = await queryRows<Row>(db, REFERENCE(since));
      const group = (by: "by_workflow" | "by_agent" | "by_person" | "by_team", key: (row: Row) => string | null) =>
        reference.filter((row) => Number(row[by]) === 1).map((row) => ({ key: key(row), ...numbers(row) })).sort((a, b) => String(a.key).localeCompare(String(b.key)));
      const overall = reference.find((row) => !Number(row.by_workflow) && !Number(row.by_agent) && !Number(row.by_person) && !Number(row.by_team));
      expect(report.overall, period).toEqual(numbers(overall!));
      expect(report.overall.total, period).toBeGreaterThan(0);
      expect(keyed(report.byWorkflow), period).toEqual(group("by_workflow", (row) => row.workflow));
      expect(keyed(report.byAgent), period).toEqual(group("by_agent", (row) => row.agent));
      expect(keyed(report.byPerson), period).toEqual(group("by_person", (row) => row.person_id));
      expect(keyed(report.byTeam), period).toEqual(group("by_team", (row) => row.team_id));
    }
  });
});
