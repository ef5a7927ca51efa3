import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { listSlotsForTask } from "@/db/queries/runtime-slots";
import { tasks } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { DAY, HOUR, manualClock } from "./clock";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("an SLA that runs out (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("runs the unfinished branch once, also when nothing was running at the deadline", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    const task = await fixture.startTask();
    await fixture.runtime.drain();

    // The process is down across the deadline; a new one wakes up a day later.
    clock.advance(3 * DAY);
    const restarted = fixture.restart();
    expect(await restarted.runtime.tick()).toEqual({ expired: 1, escalated: 0, jobs: 1 });
    expect(await restarted.runtime.tick()).toEqual({ expired: 0, escalated: 0, jobs: 0 });

    const db = fixture.database.db;
    const [row] = await db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("failed");
    // The unfinished branch ran once: the run went to Expired once.
    expect(await countRows(db, "run_events", "kind = 'state-entered' and data->>'state' = 'Expired'")).toBe(1);
    const [slot] = await listSlotsForTask(db, task.id);
    expect(slot).toMatchObject({ status: "expired", waitMs: 3 * DAY });
    expect(await countRows(db, "run_events", "kind = 'slot-expired'")).toBe(1);
    expect(await countRows(db, "run_events", "kind = 'failed'")).toBe(1);
  });

  it("leaves a slot alone before its due time", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    await fixture.startTask();
    await fixture.runtime.drain();
    clock.advance(2 * DAY - 1);
    expect(await fixture.runtime.sweepExpiredSlots()).toBe(0);
  });

  it("closes the slot to deposits at its due time", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    clock.advance(2 * DAY + HOUR);
    const late = fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: "Sorry, late: client dinner." }, by: fixture.filer.id });
    await expect(late).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("closed unanswered") });
  });
});
