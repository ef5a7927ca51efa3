import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "@/db/client";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { tasks } from "@/lib/registry";
import { createRuntime, defineWorkflow, startWorker } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

/** The handlers that began and the ones that ran to their end. */
const seen = { started: [] as string[], finished: [] as string[] };
let answerer = "";

/** One event whose handler takes a moment: each deposit queues one job. */
const Knock = defineWorkflow({
  name: "KnockWhileStopping",
  tracks: tasks,
  initial: "Waiting",
  events: { Knock: z.object({}) },
  states: {
    Waiting: {
      subscribe: { Knock: { candidates: () => [answerer] } },
      on: {
        Knock: async (run) => {
          seen.started.push(run.item.id);
          await new Promise((resolve) => setTimeout(resolve, 150));
          seen.finished.push(run.item.id);
          return undefined;
        },
      },
    },
  },
});

const RUNS = 10;

describe.each(DATABASE_KINDS)("a worker told to stop (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    Object.assign(seen, { started: [], finished: [] });
  });

  it("finishes the jobs it holds, claims no more, and leaves the rest queued for another worker", async () => {
    database = await createTestDatabase(kind);
    const [person] = await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam", roles: ["assignee"] }]);
    answerer = person!.id;
    const runtime = createRuntime({ db: database.db, workflows: [Knock] });
    for (let index = 0; index < RUNS; index++) {
      const [task] = await database.db.insert(tasks).values({ workflow: Knock.name, title: `Knock ${index}`, input: {} }).returning();
      await runtime.start(Knock, task!);
      await runtime.runJobsOf(task!.id);
      await runtime.deposit(Knock, { taskId: task!.id, event: "Knock", payload: {}, by: answerer });
    }

    const worker = startWorker(runtime, { intervalMs: 10, concurrency: 2 });
    await expect.poll(() => seen.started.length, { timeout: 10_000, interval: 5 }).toBeGreaterThan(0);
    await worker.stop();

    expect(seen.finished.sort()).toEqual(seen.started.sort());
    expect(seen.started.length).toBeLessThan(RUNS);
    const jobs = await queryRows<{ status: string; count: number | string }>(
      database.db,
      sql`select j.status, count(*) as count from jobs j join workflow_instances w on w.id = j.workflow_instance_id where w.workflow = ${Knock.name} and j.kind = 'event' group by j.status`,
    );
    const byStatus = Object.fromEntries(jobs.map((row) => [row.status, Number(row.count)]));
    expect(byStatus).toEqual({ done: seen.finished.length, queued: RUNS - seen.finished.length });
  });
});
