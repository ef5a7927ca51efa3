import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { sql } from "drizzle-orm";
import { isUniqueViolation, queryRows } from "@/db/client";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { tasks } from "@/lib/registry";
import { createRuntime, defineWorkflow, type Runtime, type RuntimeOptions } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

/** What the handlers saw: how many ran at once in all, and per run. */
const seen = { inFlight: 0, mostInFlight: 0, perTask: new Map<string, number>(), mostPerTask: 0, handled: [] as string[] };

async function handle(taskId: string, door: string) {
  seen.inFlight++;
  seen.mostInFlight = Math.max(seen.mostInFlight, seen.inFlight);
  const mine = (seen.perTask.get(taskId) ?? 0) + 1;
  seen.perTask.set(taskId, mine);
  seen.mostPerTask = Math.max(seen.mostPerTask, mine);
  // Long enough that lanes overlap whenever they can.
  await new Promise((resolve) => setTimeout(resolve, 60));
  seen.perTask.set(taskId, (seen.perTask.get(taskId) ?? 1) - 1);
  seen.handled.push(`${taskId}:${door}`);
  seen.inFlight--;
  return undefined;
}

let answerer = "";

/** A state waiting for two events at once, whose handlers stay put: each run queues two jobs that could overlap. */
const TwoDoors = defineWorkflow({
  name: "TwoDoorsMany",
  tracks: tasks,
  initial: "Waiting",
  events: { Left: z.object({}), Right: z.object({}) },
  states: {
    Waiting: {
      subscribe: { Left: { candidates: () => [answerer] }, Right: { candidates: () => [answerer] } },
      on: { Left: (run) => handle(run.item.id, "Left"), Right: (run) => handle(run.item.id, "Right") },
    },
  },
});

const RUNS = 8;

/** Starts {@link RUNS} runs and knocks on both doors of each: 2 × RUNS jobs queued. */
async function queueBothDoors(database: TestDatabase, options: Pick<RuntimeOptions, "checkpoint"> = {}): Promise<{ runtime: Runtime; taskIds: string[] }> {
  const [person] = await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam", roles: ["assignee"] }]);
  answerer = person!.id;
  const runtime = createRuntime({ db: database.db, workflows: [TwoDoors], ...options });
  const taskIds: string[] = [];
  for (let index = 0; index < RUNS; index++) {
    const [task] = await database.db.insert(tasks).values({ workflow: TwoDoors.name, title: `Doors ${index}`, input: {} }).returning();
    await runtime.start(TwoDoors, task!);
    await runtime.deposit(TwoDoors, { taskId: task!.id, event: "Left", payload: {}, by: answerer });
    await runtime.deposit(TwoDoors, { taskId: task!.id, event: "Right", payload: {}, by: answerer });
    taskIds.push(task!.id);
  }
  return { runtime, taskIds };
}

describe.each(DATABASE_KINDS)("a drain with several lanes (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => {
    await database?.close();
    Object.assign(seen, { inFlight: 0, mostInFlight: 0, perTask: new Map(), mostPerTask: 0, handled: [] });
  });

  it("runs jobs of different runs at once, never two of one run, each once", async () => {
    database = await createTestDatabase(kind);
    const { runtime, taskIds } = await queueBothDoors(database);

    const ran = await runtime.drain({ concurrency: 4 });

    expect(ran).toBe(2 * RUNS);
    expect(seen.handled.sort()).toEqual(taskIds.flatMap((id) => [`${id}:Left`, `${id}:Right`]).sort());
    expect(seen.mostInFlight).toBeGreaterThan(1);
    expect(seen.mostInFlight).toBeLessThanOrEqual(4);
    expect(seen.mostPerTask).toBe(1);
  });

  it("ends only when every lane has, even when one of them fails", async () => {
    database = await createTestDatabase(kind);
    let claims = 0;
    // The third job claimed fails its lane (as a lost connection would), while other lanes are mid-job.
    const { runtime } = await queueBothDoors(database, {
      checkpoint: (point) => {
        if (point === "job-claimed" && ++claims === 3) throw new Error("the connection was lost");
      },
    });

    await expect(runtime.drain({ concurrency: 4 })).rejects.toThrow("the connection was lost");

    expect(seen.inFlight).toBe(0);
  });

  it("has the database refuse a second running job of one run, whatever two claims saw", async () => {
    database = await createTestDatabase(kind);
    const { taskIds } = await queueBothDoors(database);
    const [first, second] = await queryRows<{ id: number }>(
      database.db,
      sql`select j.id from jobs j join workflow_instances wi on wi.id = j.workflow_instance_id where wi.task_id = ${taskIds[0]!} order by j.id`,
    );
    const markRunning = (id: number) => database.db.execute(sql`update jobs set status = 'running', locked_by = 'test', locked_until = now() + interval '1 minute' where id = ${id}`);

    await markRunning(first!.id);

    await expect(markRunning(second!.id)).rejects.toSatisfy(isUniqueViolation);
  });

  it("runs no more than maxJobs in all, however many lanes", async () => {
    database = await createTestDatabase(kind);
    const { runtime } = await queueBothDoors(database);

    const ran = await runtime.drain({ concurrency: 4, maxJobs: 5 });

    expect(ran).toBe(5);
    expect(seen.handled).toHaveLength(5);
  });
});
