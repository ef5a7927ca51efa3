import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { readOpenInbox } from "@/db/queries/inbox";
import { listAnswerableQuestions } from "@/db/queries/runtime-questions";
import { insertUsersIfAbsent } from "@/db/queries/users";
import * as schema from "@/db/schema";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { seedTeamWaits } from "./seed-team-waits";

const NOW = new Date("2026-11-20T12:00:00.000Z");

/**
 * The inbox and the questions API read a page by bounded index walks; workers only slow them (at
 * scale, the planner chose two for the busiest person, and starting them cost more than the walk).
 */
describe.runIf(DATABASE_KINDS.includes("postgres"))("a person's open questions (postgres)", () => {
  let database: TestDatabase | undefined;
  let client: postgres.Sql | undefined;
  afterEach(async () => {
    await client?.end();
    await database?.close();
    client = undefined;
    database = undefined;
  });

  it("are read without parallel workers, even where the planner is told workers cost nothing", async () => {
    database = await createTestDatabase("postgres");
    const [lee, sam] = await insertUsersIfAbsent(database.db, [
      { email: "lee@parley.test", name: "Lee Okafor", roles: ["assignee"] },
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
    ]);
    await seedTeamWaits(database.db, NOW, { group: "operations", members: [lee!.id], count: 2_000, overdue: 10 });
    // And 3,000 questions Sam was asked that name Lee as a candidate too: the walk that has a bitmap scan to read.
    const series = sql`generate_series(0, 2999) as i`;
    await database.db.execute(sql`insert into workflow_instances (id, workflow, task_id, state, status)
      select md5('instance' || i)::uuid, 'ReviewClaim', md5('task' || i)::uuid, 'Waiting', 'waiting' from ${series}`);
    await database.db.execute(sql`insert into slots (id, workflow_instance_id, workflow, task_id, state, event, assignee_id, candidate_ids, status, opened_at, due_at)
      select md5('slot' || i)::uuid, md5('instance' || i)::uuid, 'ReviewClaim', md5('task' || i)::uuid, 'Waiting', 'Answered', ${sam!.id}::uuid,
             array[${sam!.id}::uuid, ${lee!.id}::uuid], 'open', ${NOW.toISOString()}::timestamptz - i * interval '1 minute', ${NOW.toISOString()}::timestamptz + (i - 100) * interval '1 minute'
        from ${series}`);
    await database.db.execute(sql`insert into asks (id, task_id, workflow, slot_id, spec, status, asked_at)
      select md5('question' || i)::uuid, md5('task' || i)::uuid, 'ReviewClaim', md5('slot' || i)::uuid, '{"fields": []}'::jsonb, 'open', ${NOW.toISOString()}::timestamptz - i * interval '1 minute'
        from ${series}`);
    await database.db.execute("analyze");
    // One session in which parallel plans cost nothing to start and nothing to send rows back, and each statement's plan is kept.
    client = postgres(database.url!, { max: 1, onnotice: () => {} });
    for (const setting of ["parallel_setup_cost", "parallel_tuple_cost", "min_parallel_table_scan_size", "min_parallel_index_scan_size"]) await client.unsafe(`set ${setting} = 0`);
    const plans: string[] = [];
    const explaining = new Proxy(client, {
      get(target, property, receiver) {
        if (property !== "unsafe") return Reflect.get(target, property, receiver);
        return async (query: string, parameters?: never[], options?: postgres.UnsafeQueryOptions) => {
          const plan = await target.unsafe<{ "QUERY PLAN": string }[]>(`explain ${query}`, parameters);
          plans.push(plan.map((row) => row["QUERY PLAN"]).join("\n"));
          return target.unsafe(query, parameters, options);
        };
      },
    });
    const db = drizzle({ client: explaining, schema }) as unknown as Db;

    await readOpenInbox(db, lee!.id, "candidates", NOW, { limit: 50 });
    await readOpenInbox(db, lee!.id, "overdue", NOW, { limit: 50 }, { text: "team" });
    await listAnswerableQuestions(db, lee!.id, { limit: 101 });
    expect(plans).toHaveLength(3);
    for (const plan of plans) expect(plan).not.toMatch(/Gather|Parallel/);
    // …where a statement that may have them gets them.
    expect((await client.unsafe<{ "QUERY PLAN": string }[]>("explain select count(*) from slots")).map((row) => row["QUERY PLAN"]).join("\n")).toMatch(/Gather/);
  });
});
