import { afterEach, describe, expect, it } from "vitest";
import { listSlotsForTask } from "@/db/queries/runtime-slots";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a resumed run (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("parks again and the workflow goes back to Waiting with a new slot", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    await fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: "Food." }, by: fixture.filer.id });
    await fixture.runtime.drain();

    const slots = await listSlotsForTask(fixture.database.db, task.id);
    expect(slots.map((slot) => [slot.state, slot.status])).toEqual([
      ["Waiting", "finished"],
      ["Waiting", "open"],
    ]);
    const parked = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "parked");
    expect(parked).toHaveLength(2);
  });
});
