import { afterEach, describe, expect, it } from "vitest";
import { SLA_SWEEP_BATCH, startWorker } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { DAY, manualClock } from "./clock";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a worker that wakes to more overdue waits than one sweep takes (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("sweeps again at once instead of leaving the rest for the next tick", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    const waits = SLA_SWEEP_BATCH * 2 + 1;
    for (let index = 0; index < waits; index++) await fixture.startTask();
    await fixture.runtime.drain({ maxJobs: waits + 10 });
    expect(await countRows(fixture.database.db, "slots", "status = 'open'")).toBe(waits);

    clock.advance(3 * DAY);
    // A tick a minute: only catching up at once can expire them all within the test.
    const worker = startWorker(fixture.restart().runtime, { intervalMs: 60_000 });
    const startedAt = Date.now();
    while ((await countRows(fixture.database.db, "slots", "status = 'expired'")) < waits && Date.now() - startedAt < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await worker.stop();
    expect(await countRows(fixture.database.db, "slots", "status = 'expired'")).toBe(waits);
    expect(await countRows(fixture.database.db, "run_events", "kind = 'slot-expired'")).toBe(waits);
  });
});
