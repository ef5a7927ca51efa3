import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { countRunsByState, findRun, listRuns } from "@/db/queries/runs";
import { runCountWords } from "@/lib/run-view";
import { DATABASE_KINDS, createTestDatabase, type TestDatabase } from "@/tests/support/databases";
import { DAY, HOUR, manualClock } from "../runtime/clock";
import { createRuntimeFixture, type RuntimeFixture } from "../runtime/fixture-workflow";

/**
 * A run's state is kept as it changes (`workflow_instances.run_state`, with why a question got no
 * answer kept when the run fails), so the runs list and its tab counts read it by index instead of
 * working it out for every run on every view.
 */
describe.each(DATABASE_KINDS)("a run's kept state (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    await database?.close();
    fixture = undefined;
    database = undefined;
  });

  it("lists and counts a run that failed because nobody answered as ended without an answer, with why", async () => {
    const clock = manualClock();
    fixture = await createRuntimeFixture(kind, { now: clock.now });
    const task = await fixture.startQuestionnaireTask();
    clock.advance(3 * DAY + HOUR);
    await fixture.runtime.tick();

    const db = fixture.database.db;
    expect(await findRun(db, task.id)).toMatchObject({ status: "failed", runState: "nothing", nothingReason: "expired" });
    expect((await listRuns(db, { state: "nothing" })).map((run) => run.taskId)).toEqual([task.id]);
    expect(await listRuns(db, { state: "failed" })).toEqual([]);
    const counts = await countRunsByState(db);
    expect(counts.nothing).toEqual({ count: 1, atLeast: false });
    expect(counts.failed).toEqual({ count: 0, atLeast: false });
  });

  it("lists a run that waits on a person under waiting, with whom it waits on", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const [run] = await listRuns(fixture.database.db, { state: "waiting" });
    expect(run).toMatchObject({ taskId: task.id, runState: "waiting", nothingReason: null, waitingOn: fixture.filer.name });
  });

  it("counts a state to a thousand runs and no further: its tab reads 1,000+, without reading them all", async () => {
    database = await createTestDatabase(kind);
    await database.db.execute(sql`
      insert into workflow_instances (workflow, task_id, state, status)
      select 'Bulk', gen_random_uuid(), 'Done', 'completed' from generate_series(1, 1005)`);
    await database.db.execute(sql`insert into workflow_instances (workflow, task_id, state, status) values ('Bulk', gen_random_uuid(), 'Asking', 'waiting')`);
    const counts = await countRunsByState(database.db, { workflows: ["Bulk"] });
    expect(counts.completed).toEqual({ count: 1_000, atLeast: true });
    expect(runCountWords(counts.completed)).toBe("1,000+");
    expect(counts.waiting).toEqual({ count: 1, atLeast: false });
  });
});
