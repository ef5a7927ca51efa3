import { afterEach, describe, expect, it } from "vitest";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { clerkScript, createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

const LEASE_MS = 1_500;
const TURN_MS = 6_000;

describe.each(DATABASE_KINDS)("a job that runs longer than its lease (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("is not taken over while its worker is alive: the lease is renewed until the turn ends", async () => {
    fixture = await createRuntimeFixture(kind, { leaseMs: LEASE_MS });
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    await fixture.runtime.deposit(FileTask, {
      taskId: task.id,
      event: "Answered",
      payload: { text: "Dinner with the Acme procurement team to close the renewal." },
      by: fixture.filer.id,
    });
    // A model that thinks for five leases' time.
    const slow = createScriptedModel({ respond: (prompt) => ({ delayMs: TURN_MS, then: clerkScript(prompt) }) });
    const working = fixture.restart({ leaseMs: LEASE_MS, resolveModel: () => slow });
    const other = fixture.restart({ leaseMs: LEASE_MS });

    const first = working.runtime.runNextJob();
    const startedAt = Date.now();
    let takenOver = 0;
    while (Date.now() - startedAt < TURN_MS - LEASE_MS) {
      if (await other.runtime.runNextJob()) takenOver++;
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS / 3));
    }
    expect(await first).toBe(true);
    expect(takenOver).toBe(0);
    expect(other.model.calls).toHaveLength(0);
    expect(await countRows(fixture.database.db, "jobs", "kind = 'event' and status = 'done' and attempts = 1")).toBe(1);
  });
});
