import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { listQuestionsForTask } from "@/db/queries/runtime-questions";
import { tasks } from "@/lib/registry";
import type { RuntimeChange } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, PayBack, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("an operator cancelling a run (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("ends it cancelled, withdraws its open question (nothing, reason cancelled) from every inbox, tells them, and records who", async () => {
    const announced: RuntimeChange[] = [];
    fixture = await createRuntimeFixture(kind, { announce: async (_tx, changes) => void announced.push(...changes) });
    const task = await fixture.startQuestionnaireTask();
    const [asked] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(asked).toBeDefined();
    announced.length = 0;

    const cancelled = await fixture.runtime.cancelRun(PayBack, task.id, { by: fixture.outsider.id });
    expect(cancelled).toEqual({ status: "cancelled", from: "waiting", state: "Asking", withdrawn: [asked!.id] });

    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("cancelled");
    const [instance] = await queryRows<{ status: string }>(fixture.database.db, sql`select status from workflow_instances where task_id = ${task.id}`);
    expect(instance?.status).toBe("cancelled");
    const [question] = await listQuestionsForTask(fixture.database.db, task.id);
    expect(question).toMatchObject({ id: asked!.id, status: "nothing", reason: "cancelled", answeredBy: null, slot: { status: "cancelled" } });
    expect(await fixture.runtime.questionsFor(fixture.filer.id)).toEqual([]);

    const events = await fixture.runtime.events(task.id);
    expect(events.filter((event) => event.kind === "cancelled").map((event) => event.data)).toEqual([{ by: fixture.outsider.id, from: "waiting", state: "Asking", withdrawn: 1 }]);
    expect(events.filter((event) => event.kind === "nothing").map((event) => event.data)).toEqual([{ questionId: asked!.id, reason: "cancelled", by: fixture.outsider.id }]);
    expect(announced).toContainEqual(expect.objectContaining({ kind: "question-closed", questionId: asked!.id, userIds: [fixture.filer.id] }));
    expect(announced).toContainEqual(expect.objectContaining({ kind: "run-status", status: "cancelled" }));

    // Nothing of it runs again, and an answer that comes late is refused.
    const late = await fixture.runtime.submitAnswer({ questionId: asked!.id, by: fixture.filer.id, answer: { form: { method: "payroll", urgent: "no", attendees: "Fay" } } });
    expect(late.status).toBe("conflict");
    expect(await fixture.runtime.tick()).toEqual({ expired: 0, escalated: 0, jobs: 0 });
  });

  it("withdraws an agent's question waiting in its run's slot, and drops the run's queued work", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask(FileTask);
    await fixture.runtime.drain();
    const [asked] = await fixture.runtime.questionsFor(fixture.filer.id);
    expect(asked).toMatchObject({ agent: "Clerk" });
    // A queued job of the run (as after an answer): the cancel finishes it unrun.
    await queryRows(fixture.database.db, sql`insert into jobs (kind, workflow_instance_id, state, run_at) select 'enter', id, 'Waiting', now() from workflow_instances where task_id = ${task.id}`);

    const cancelled = await fixture.runtime.cancelRun(FileTask, task.id, { by: fixture.outsider.id });
    expect(cancelled.withdrawn).toEqual([asked!.id]);
    const [question] = await listQuestionsForTask(fixture.database.db, task.id);
    expect(question).toMatchObject({ status: "nothing", reason: "cancelled" });
    expect(await fixture.runtime.questionsFor(fixture.filer.id)).toEqual([]);
    expect(await fixture.runtime.questionsFor(fixture.colleague.id)).toEqual([]);
    const jobs = await queryRows<{ status: string; last_error: string | null }>(fixture.database.db, sql`select status, last_error from jobs order by id`);
    expect(jobs.every((job) => job.status === "done")).toBe(true);
    expect(jobs.at(-1)).toEqual({ status: "done", last_error: "the run was cancelled" });
    expect(await fixture.runtime.drain()).toBe(0);
  });
});
