import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { listSlotsForTask } from "@/db/queries/runtime-slots";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { HOUR, manualClock } from "./clock";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a slot (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("opens on entering Waiting with the instance, event, assignee, candidates, opened-at and due-at", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    const task = await fixture.startTask();
    await fixture.runtime.drain();

    const [slot] = await listSlotsForTask(fixture.database.db, task.id);
    const [instance] = await queryRows<{ id: string }>(fixture.database.db, sql`select id from workflow_instances where task_id = ${task.id}`);
    expect(slot).toMatchObject({
      workflowInstanceId: instance!.id,
      state: "Waiting",
      event: "Answered",
      role: "Filer",
      assigneeId: fixture.filer.id,
      status: "open",
      openedAt: clock.now(),
      dueAt: new Date(clock.now().getTime() + 48 * HOUR),
    });
    expect([...slot!.candidateIds].sort()).toEqual([fixture.filer.id, fixture.colleague.id].sort());
  });

  it("is what a candidate may answer, and not what anyone else may", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    expect((await fixture.runtime.answerableSlots(fixture.colleague.id)).map((slot) => slot.taskId)).toEqual([task.id]);
    expect(await fixture.runtime.answerableSlots(fixture.outsider.id)).toEqual([]);
  });

  it("records who finished it, when, and how long it was open", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    clock.advance(15 * HOUR);
    await fixture.runtime.deposit(FileTask, { taskId: task.id, event: "Answered", payload: { text: "Client dinner." }, by: fixture.filer.id });

    const [slot] = await listSlotsForTask(fixture.database.db, task.id);
    expect(slot).toMatchObject({ status: "finished", finishedBy: fixture.filer.id, finishedAt: clock.now(), waitMs: 15 * HOUR });
  });
});

describe.runIf(DATABASE_KINDS.includes("postgres"))("what may I answer (postgres)", () => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("is answered from the open-slot indexes, not a scan", async () => {
    fixture = await createRuntimeFixture("postgres");
    await fixture.startTask();
    await fixture.runtime.drain();
    const client = fixture.database.postgres!;
    // Enough open slots for other people that a scan would be the wrong plan.
    await client.unsafe(`
      with instances as (
        insert into workflow_instances (workflow, task_id, state, status)
        select 'Other', gen_random_uuid(), 'Waiting', 'waiting' from generate_series(1, 5000)
        returning id, task_id
      )
      insert into slots (workflow_instance_id, workflow, task_id, state, event, candidate_ids, opened_at)
      select id, 'Other', task_id, 'Waiting', 'Answered', array[gen_random_uuid(), gen_random_uuid()], now() from instances`);
    await client.unsafe("analyze slots");
    const reserved = await client.reserve();
    try {
      const plan = await reserved.unsafe(
        `explain select id from slots where status = 'open' and (assignee_id = $1 or candidate_ids @> array[$1]::uuid[])`,
        [fixture.colleague.id],
      );
      const text = plan.map((row) => String(row["QUERY PLAN"])).join("\n");
      expect(text).toContain("slots_open_candidates_idx");
      expect(text).toContain("slots_open_assignee_idx");
    } finally {
      reserved.release();
    }
  });
});
