import { afterEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { tasks } from "@/lib/registry";
import type { Checkpoint } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { manualClock } from "./clock";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

const LEASE_MS = 60_000;
const ANSWER = "Dinner with the Acme procurement team to close the renewal.";

/** A checkpoint that never returns at `point`: from there on the runtime does nothing, as if its process died. */
function dieAt(point: Checkpoint) {
  return (reached: Checkpoint) => (reached === point ? new Promise<never>(() => {}) : undefined);
}

async function until(condition: () => Promise<boolean> | boolean) {
  for (let attempt = 0; attempt < 500; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("condition never held");
}

describe.each(DATABASE_KINDS)("a worker that dies (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  async function parkedTaskWithDyingWorker(point: Checkpoint) {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now, leaseMs: LEASE_MS });
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const dying = fixture.restart({ checkpoint: dieAt(point) });
    await dying.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: ANSWER }, by: fixture.filer.id });
    void dying.runtime.runNextJob();
    return { clock, task, dying };
  }

  async function expectCompletedOnce(taskId: string) {
    const db = fixture.database.db;
    const [row] = await db.select().from(tasks).where(eq(tasks.id, taskId));
    // Filed: the Clerk took the answer and the run completed.
    expect(row?.status).toBe("completed");
    expect(await countRows(db, "conversation_messages", "tool_call_id is not null")).toBe(1);
    expect(await countRows(db, "conversation_messages", "role = 'assistant'")).toBe(2);
    expect(await countRows(db, "asks", `status = 'answered' and answer->>'text' = '${ANSWER}'`)).toBe(1);
    expect(await countRows(db, "run_events", "kind = 'completed'")).toBe(1);
  }

  it("between the deposit and the handler: after restart the answer is taken once", async () => {
    const { clock, task } = await parkedTaskWithDyingWorker("job-claimed");
    await until(async () => (await countRows(fixture.database.db, "jobs", "kind = 'event' and status = 'running'")) === 1);

    clock.advance(LEASE_MS + 1);
    const restarted = fixture.restart();
    await restarted.runtime.drain();
    await expectCompletedOnce(task.id);
    expect(restarted.model.calls).toHaveLength(1);
  });

  it("tells the worker that takes a dead worker's job over that it did, once, and no other claim", async () => {
    const clock = manualClock();
    const takenOver: { kind: string; taskId: string }[] = [];
    const onLeaseTakeover = (job: { kind: string; taskId: string }) => void takenOver.push({ kind: job.kind, taskId: job.taskId });
    fixture = await createRuntimeFixture(kind, { now: clock.now, leaseMs: LEASE_MS, onLeaseTakeover });
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    const dying = fixture.restart({ checkpoint: dieAt("job-claimed"), onLeaseTakeover });
    await dying.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: ANSWER }, by: fixture.filer.id });
    void dying.runtime.runNextJob();
    await until(async () => (await countRows(fixture.database.db, "jobs", "kind = 'event' and status = 'running'")) === 1);
    expect(takenOver).toEqual([]);

    clock.advance(LEASE_MS + 1);
    await fixture.restart({ onLeaseTakeover }).runtime.drain();
    expect(takenOver).toEqual([{ kind: "event", taskId: task.id }]);
    await expectCompletedOnce(task.id);
  });

  it("between the model call and storing the turn: after restart the turn is stored once", async () => {
    const { clock, task, dying } = await parkedTaskWithDyingWorker("model-returned");
    await until(() => dying.model.calls.length === 1);

    clock.advance(LEASE_MS + 1);
    const restarted = fixture.restart();
    await restarted.runtime.drain();
    await expectCompletedOnce(task.id);
  });

  it("after storing the turn but before moving on: the restarted handler does not call the model or answer again", async () => {
    const { clock, task } = await parkedTaskWithDyingWorker("step-stored");
    await until(async () => (await countRows(fixture.database.db, "conversation_messages", "role = 'assistant'")) === 2);

    clock.advance(LEASE_MS + 1);
    const restarted = fixture.restart();
    await restarted.runtime.drain();
    await expectCompletedOnce(task.id);
    expect(restarted.model.calls).toHaveLength(0);
  });

  it("is not overtaken while its lease holds", async () => {
    const { task } = await parkedTaskWithDyingWorker("job-claimed");
    await until(async () => (await countRows(fixture.database.db, "jobs", "kind = 'event' and status = 'running'")) === 1);
    expect(await fixture.restart().runtime.drain()).toBe(0);
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("waiting");
  });
});
