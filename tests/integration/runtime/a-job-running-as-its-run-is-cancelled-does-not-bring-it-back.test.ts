import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, PayBack, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a job that is running as its run is cancelled (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  /** A fixture whose runtime cancels the task's run just after it claims its next job, before the job's work. */
  async function cancelledMidJob(workflow: typeof PayBack | typeof FileTask) {
    let taskId: string | undefined;
    fixture = await createRuntimeFixture(kind, {
      async checkpoint(point) {
        if (point !== "job-claimed" || !taskId) return;
        const cancelling = taskId;
        taskId = undefined;
        await fixture!.runtime.cancelRun(workflow, cancelling, { by: fixture!.outsider.id });
      },
    });
    const task = await fixture.startTask(workflow, "Lisbon taxi");
    taskId = task.id;
    await fixture.runtime.drain();
    return task.id;
  }

  async function runOf(taskId: string) {
    const [run] = await queryRows<{ status: string; state: string }>(fixture!.database.db, sql`select status, state from workflow_instances where task_id = ${taskId}`);
    const [task] = await queryRows<{ status: string }>(fixture!.database.db, sql`select status from tasks where id = ${taskId}`);
    const open = await queryRows<{ id: string }>(fixture!.database.db, sql`select id from slots where task_id = ${taskId} and status = 'open'`);
    const jobs = await queryRows<{ status: string }>(fixture!.database.db, sql`select j.status from jobs j join workflow_instances w on w.id = j.workflow_instance_id where w.task_id = ${taskId}`);
    return { run, task: task?.status, openSlots: open.length, jobs: jobs.map((job) => job.status) };
  }

  it("asks nobody: a person's questionnaire asked after the cancel opens no question and no slot, and the run stays cancelled", async () => {
    const taskId = await cancelledMidJob(PayBack);
    expect(await runOf(taskId)).toEqual({ run: { status: "cancelled", state: "Asking" }, task: "cancelled", openSlots: 0, jobs: ["done"] });
    expect(await fixture!.runtime.questionsFor(fixture!.filer.id)).toEqual([]);
    expect(await fixture!.runtime.tick()).toEqual({ expired: 0, escalated: 0, jobs: 0 });
  });

  it("moves nowhere: an agent that asks after the cancel does not park the run in Waiting, and nobody is asked", async () => {
    const taskId = await cancelledMidJob(FileTask);
    expect(await runOf(taskId)).toEqual({ run: { status: "cancelled", state: "Running" }, task: "cancelled", openSlots: 0, jobs: ["done"] });
    expect(await fixture!.runtime.questionsFor(fixture!.filer.id)).toEqual([]);
    expect((await fixture!.runtime.events(taskId)).map((event) => event.kind)).not.toContain("slot-opened");
  });
});
