import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { listSlotsForTask } from "@/db/queries/runtime-slots";
import { reassignWaits } from "@/lib/bulk-waits";
import { AppError } from "@/lib/errors";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createExampleFixture, type ExampleFixture } from "@/examples/expense-review/tests/fixture";

describe.each(DATABASE_KINDS)("reassigning many waits at once (%s)", (kind) => {
  let fixture: ExampleFixture;
  afterEach(async () => fixture?.database.close());

  it("moves each open wait, each recorded as one reassignment, and counts a wait that ended meanwhile", async () => {
    fixture = await createExampleFixture(kind);
    const [first, second] = [await fixture.startUnexplainedReview(), await fixture.startUnexplainedReview()];
    await fixture.runtime.drain();
    const [firstSlot] = await listSlotsForTask(fixture.database.db, first.id);
    const [secondSlot] = await listSlotsForTask(fixture.database.db, second.id);
    // The second ended before the bulk action reached it (closed with nothing, say): it is left as it is.
    await fixture.database.db.execute(sql`update slots set status = 'closed' where id = ${secondSlot!.id}::uuid`);

    const outcome = await reassignWaits(fixture.database.db, fixture.runtime, { slotIds: [firstSlot!.id, secondSlot!.id], email: fixture.priya.email, by: fixture.omar.id });
    expect(outcome).toEqual({ done: 1, notOpen: 1, people: [fixture.priya.name] });
    const [moved] = await listSlotsForTask(fixture.database.db, first.id);
    expect(moved).toMatchObject({ status: "open", assigneeId: fixture.priya.id });
    const events = (await fixture.runtime.events(first.id)).filter((event) => event.kind === "slot-reassigned");
    expect(events.map((event) => event.data)).toEqual([{ slotId: firstSlot!.id, from: fixture.sam.id, to: fixture.priya.id, by: fixture.omar.id }]);
  });

  it("refuses an email that is nobody's who answers questions, and moves nothing", async () => {
    fixture = await createExampleFixture(kind);
    const task = await fixture.startUnexplainedReview();
    await fixture.runtime.drain();
    const [slot] = await listSlotsForTask(fixture.database.db, task.id);
    await expect(reassignWaits(fixture.database.db, fixture.runtime, { slotIds: [slot!.id], email: "nobody@parley.test", by: fixture.omar.id })).rejects.toBeInstanceOf(AppError);
    const [still] = await listSlotsForTask(fixture.database.db, task.id);
    expect(still).toMatchObject({ status: "open", assigneeId: fixture.sam.id });
  });
});
