import { eq } from "drizzle-orm";
import { afterEach, describe, it } from "vitest";
import { tasks } from "@/lib/registry";
import { startWorker, type Worker } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

async function statusBecomes(fixture: RuntimeFixture, taskId: string, status: string) {
  for (let attempt = 0; attempt < 500; attempt++) {
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, taskId));
    if (row?.status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the task never became ${status}`);
}

describe.each(DATABASE_KINDS)("the worker loop (%s)", (kind) => {
  let fixture: RuntimeFixture;
  let worker: Worker | undefined;
  afterEach(async () => {
    await worker?.stop();
    await fixture?.database.close();
  });

  it("runs started tasks and deposited answers without anyone draining by hand", async () => {
    fixture = await createRuntimeFixture(kind);
    worker = startWorker(fixture.runtime, { intervalMs: 25 });
    const task = await fixture.startTask();
    await statusBecomes(fixture, task.id, "waiting");
    await fixture.runtime.deposit(FileTask, {
      taskId: task.id,
      event: "Answered",
      payload: { text: "Dinner with the Acme procurement team to close the renewal." },
      by: fixture.filer.id,
    });
    worker.wake();
    await statusBecomes(fixture, task.id, "completed");
  });
});
