import { afterEach, describe, expect, it } from "vitest";
import { listSlotsForTask } from "@/db/queries/runtime-slots";
import { ReviewClaim } from "@/examples/expense-review/review-claim";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "./example-fixture";

describe.each(DATABASE_KINDS)("a resumed run (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("parks again and the workflow goes back to Waiting with a new slot", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    await fixture.runtime.deposit(ReviewClaim, { taskId: task.id, event: "Answered", payload: { text: "Food." }, by: fixture.sam.id });
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
