import { afterEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "@/db/client";
import { listRunEvents } from "@/db/queries/runtime-events";
import type { RuntimeOptions } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { DAY, manualClock } from "./clock";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

const TASKS = 12;

// Two instances share work only through a PostgreSQL server, each with its own connections.
describe.runIf(DATABASE_KINDS.includes("postgres"))("two runtime instances on one PostgreSQL", () => {
  let fixture: RuntimeFixture;
  let second: Database | undefined;
  afterEach(async () => {
    await second?.close();
    await fixture?.database.close();
  });

  /** The second instance gets connections of its own, as another process would. */
  async function secondInstance(options: Partial<RuntimeOptions>) {
    second = await openDatabase({ kind: "postgres", url: fixture.database.url! });
    return fixture.restart({ ...options, db: second.db });
  }

  async function startTasks() {
    const tasks = [];
    for (let index = 0; index < TASKS; index++) tasks.push(await fixture.startTask());
    return tasks;
  }

  it("never run the same handler twice", async () => {
    fixture = await createRuntimeFixture("postgres");
    const tasks = await startTasks();
    const one = fixture.restart({ workerId: "one" });
    const two = await secondInstance({ workerId: "two" });
    await Promise.all([one.runtime.drain(), two.runtime.drain()]);
    await Promise.all(
      tasks.map((task) => fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: "Client dinner with Acme to close the renewal." }, by: fixture.filer.id })),
    );
    await Promise.all([one.runtime.drain(), two.runtime.drain()]);

    expect(one.model.calls.length + two.model.calls.length).toBe(2 * TASKS);
    for (const task of tasks) {
      const events = await listRunEvents(fixture.database.db, task.id);
      expect(events.filter((event) => event.kind === "turn-started")).toHaveLength(2);
      // Filed once: the run completes once.
      expect(events.filter((event) => event.kind === "completed")).toHaveLength(1);
    }
    expect(await countRows(fixture.database.db, "jobs", "attempts <> 1")).toBe(0);
  });

  it("never run the same expiry twice", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture("postgres", { now: clock.now });
    await startTasks();
    await fixture.runtime.drain();
    clock.advance(3 * DAY);
    const one = fixture.restart({ workerId: "one" });
    const two = await secondInstance({ workerId: "two" });
    const [first, second] = await Promise.all([one.runtime.tick(), two.runtime.tick()]);

    expect(first.expired + second.expired).toBe(TASKS);
    expect(first.jobs + second.jobs).toBe(TASKS);
    expect(await countRows(fixture.database.db, "run_events", "kind = 'slot-expired'")).toBe(TASKS);
    expect(await countRows(fixture.database.db, "run_events", "kind = 'failed'")).toBe(TASKS);
  });
});
