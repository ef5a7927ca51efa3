import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Database, openDatabase } from "@/db/client";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { tasks } from "@/lib/registry";
import { createRuntime, defineWorkflow } from "@/lib/runtime";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

let inFlight = 0;
let mostInFlight = 0;
const handled: string[] = [];

async function handle(name: string) {
  inFlight++;
  mostInFlight = Math.max(mostInFlight, inFlight);
  await new Promise((resolve) => setTimeout(resolve, 150));
  handled.push(name);
  inFlight--;
  return undefined;
}

/** A state waiting for two events at once, whose handlers stay put. */
const TwoDoors = defineWorkflow({
  name: "TwoDoors",
  tracks: tasks,
  initial: "Waiting",
  events: { Left: z.object({}), Right: z.object({}) },
  states: {
    Waiting: {
      subscribe: { Left: { candidates: () => [answerer] }, Right: { candidates: () => [answerer] } },
      on: { Left: () => handle("Left"), Right: () => handle("Right") },
    },
  },
});
let answerer = "";

describe.runIf(DATABASE_KINDS.includes("postgres"))("jobs of one instance (postgres)", () => {
  let database: TestDatabase;
  let second: Database | undefined;
  afterEach(async () => {
    await second?.close();
    await database?.close();
  });

  it("never run at the same time, even on two runtime instances", async () => {
    database = await createTestDatabase("postgres");
    second = await openDatabase({ kind: "postgres", url: database.url! });
    const [person] = await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam", roles: ["assignee"] }]);
    answerer = person!.id;
    const [task] = await database.db.insert(tasks).values({ workflow: TwoDoors.name, title: "Two doors", input: {} }).returning();
    const one = createRuntime({ db: database.db, workflows: [TwoDoors] });
    const two = createRuntime({ db: second.db, workflows: [TwoDoors] });
    await one.start(TwoDoors, task!);
    await one.deposit(TwoDoors, { taskId: task!.id, event: "Left", payload: {}, by: answerer });
    await one.deposit(TwoDoors, { taskId: task!.id, event: "Right", payload: {}, by: answerer });

    // Each keeps polling until both handlers have run, as workers do.
    const work = async (runtime: typeof one) => {
      while (handled.length < 2) if (!(await runtime.runNextJob())) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await Promise.all([work(one), work(two)]);
    expect(handled.sort()).toEqual(["Left", "Right"]);
    expect(mostInFlight).toBe(1);
  });
});
