import { getTableName, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Db, queryRows } from "@/db/client";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { jobs as jobsTable } from "@/db/schema";
import { tasks } from "@/lib/registry";
import { createRuntime, defineWorkflow, startWorker } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

/** A gate a test opens when it chooses. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** The handlers that began, by task, and whether the ones that began wait for {@link handlers} to open. */
const seen = { started: [] as string[], moved: [] as string[] };
let handlers = gate();
let holdHandlers = true;
let answerer = "";

/** One event whose handler runs as long as the test holds it (a model call that takes its time), then ends the run. */
const Knock = defineWorkflow({
  name: "KnockWhileHandingBack",
  tracks: tasks,
  initial: "Waiting",
  events: { Knock: z.object({}) },
  states: {
    Waiting: {
      subscribe: { Knock: { candidates: () => [answerer] } },
      on: {
        Knock: async (run) => {
          seen.started.push(run.item.id);
          if (holdHandlers) await handlers.opened;
          return run.goto("Done");
        },
      },
    },
    Done: { terminal: "success" },
  },
});

const dialect = new PgDialect();
/** What a claim's statement says as it takes its job: the job moves to running with one more attempt. */
const CLAIM = `update "${getTableName(jobsTable)}" set "${jobsTable.status.name}" = 'running', "${jobsTable.attempts.name}" = "${getTableName(jobsTable)}"."${jobsTable.attempts.name}" + 1`;

/**
 * `db`, except that the `nth` job claim (and every one after it) commits and then waits for `landing`
 * before its answer reaches the runtime: a claim under way, the job already the worker's in the database.
 */
function withClaimsHeldFrom(db: Db, nth: number, landing: Promise<void>, onHeld: () => void): Db {
  let claims = 0;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== "execute") return Reflect.get(target, property, receiver) as unknown;
      return async (query: SQL) => {
        const result = await target.execute(query);
        if (dialect.sqlToQuery(query).sql.includes(CLAIM) && ++claims >= nth) {
          onHeld();
          await landing;
        }
        return result;
      };
    },
  });
}

async function jobs(database: TestDatabase) {
  return queryRows<{ task_id: string; status: string; locked_by: string | null; locked_until: Date | string | null; attempts: number }>(
    database.db,
    sql`select w.task_id, j.status, j.locked_by, j.locked_until, j.attempts from jobs j join workflow_instances w on w.id = j.workflow_instance_id
        where w.workflow = ${Knock.name} and j.kind = 'event' order by j.id`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DATABASE_KINDS)("a worker stopped with a bound (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    handlers.open();
    await sleep(50);
    await database?.close();
    database = undefined;
    Object.assign(seen, { started: [], moved: [] });
    handlers = gate();
    holdHandlers = true;
  });

  /** Three runs, each with a Knock job queued. */
  async function knocked(count = 3) {
    database = await createTestDatabase(kind);
    const [person] = await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam", roles: ["assignee"] }]);
    answerer = person!.id;
    const setup = createRuntime({ db: database.db, workflows: [Knock] });
    const ids: string[] = [];
    for (let index = 0; index < count; index++) {
      const [task] = await database.db.insert(tasks).values({ workflow: Knock.name, title: `Knock ${index}`, input: {} }).returning();
      await setup.start(Knock, task!);
      await setup.runJobsOf(task!.id);
      await setup.deposit(Knock, { taskId: task!.id, event: "Knock", payload: {}, by: answerer });
      ids.push(task!.id);
    }
    return ids;
  }

  it("hands back, at the bound, the job it is running and the one whose claim was under way, and another worker runs them at once", async () => {
    const ids = await knocked();
    const landing = gate();
    let held = false;
    // A lease far longer than the test: a job another worker runs in it was handed back, not taken over.
    const stopping = createRuntime({
      db: withClaimsHeldFrom(database!.db, 2, landing.opened, () => (held = true)),
      workflows: [Knock],
      leaseMs: 10 * 60_000,
    });
    const worker = startWorker(stopping, { intervalMs: 10, concurrency: 2 });
    // One lane runs a job that does not end; the other's claim has taken a job and not answered yet.
    await expect.poll(() => seen.started.length === 1 && held, { timeout: 10_000, interval: 5 }).toBe(true);

    const stopped = worker.stop({ timeoutMs: 200 });
    // The claim lands after the bound.
    setTimeout(() => landing.open(), 400);
    const outcome = await Promise.race([stopped, sleep(5_000).then(() => "still stopping" as const)]);

    expect(outcome).toEqual({ finished: false, handedBack: 2 });
    // Only the first job ever began here: the other went back unrun.
    expect(seen.started).toHaveLength(1);
    const after = await jobs(database!);
    expect(after.filter((job) => job.status === "running")).toEqual([]);
    expect(after.map((job) => ({ status: job.status, lockedBy: job.locked_by, lockedUntil: job.locked_until }))).toEqual(
      ids.map(() => ({ status: "queued", lockedBy: null, lockedUntil: null })),
    );

    // Another worker takes them at once — not a lease later — and each run ends once.
    holdHandlers = false;
    const other = createRuntime({ db: database!.db, workflows: [Knock], leaseMs: 10 * 60_000 });
    expect(await other.drain()).toBe(3);
    // The stopping worker's handler, let go now, finds its job gone: its move is refused.
    handlers.open();
    await sleep(100);
    const ended = await queryRows<{ task_id: string; count: number | string }>(
      database!.db,
      sql`select task_id, count(*) as count from run_events where kind = 'state-entered' and data->>'state' = 'Done' group by task_id`,
    );
    expect(Object.fromEntries(ended.map((row) => [row.task_id, Number(row.count)]))).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
    expect((await jobs(database!)).map((job) => job.status)).toEqual(["done", "done", "done"]);
    // And the stopping runtime claims nothing more.
    expect(await stopping.runNextJob()).toBe(false);
  });

  it("runs to its end the job of a claim under way when it is told to stop, and takes no more", async () => {
    const ids = await knocked();
    holdHandlers = false;
    const landing = gate();
    let held = false;
    const stopping = createRuntime({ db: withClaimsHeldFrom(database!.db, 1, landing.opened, () => (held = true)), workflows: [Knock], leaseMs: 10 * 60_000 });
    const worker = startWorker(stopping, { intervalMs: 10, concurrency: 1 });
    await expect.poll(() => held, { timeout: 10_000, interval: 5 }).toBe(true);

    const stopped = worker.stop({ timeoutMs: 5_000 });
    await sleep(50);
    landing.open();
    expect(await stopped).toEqual({ finished: true, handedBack: 0 });

    const after = await jobs(database!);
    expect(after.filter((job) => job.status === "running")).toEqual([]);
    expect(after.filter((job) => job.status === "done").map((job) => job.task_id)).toEqual(seen.started);
    expect(seen.started).toHaveLength(1);
    expect(after.filter((job) => job.status === "queued")).toHaveLength(ids.length - 1);
  });
});
