import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { tasks } from "@/lib/registry";
import { AppError } from "@/lib/errors";
import { createRuntime, definitionError, defineWorkflow, type RegisteredWorkflow, type Runtime } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { createRuntimeFixture, type RuntimeFixture } from "./fixture-workflow";

/** A workflow that waits for the filer's note, then does what `then` says with it. */
function intake(note: z.ZodType, then: (payload: unknown) => void = () => {}) {
  return defineWorkflow({
    name: "Intake",
    tracks: tasks,
    initial: "Waiting",
    events: { Filed: note },
    states: {
      Waiting: {
        subscribe: { Filed: { assignee: (run) => run.item.createdBy } },
        on: {
          Filed(run, payload) {
            then(payload);
            return run.goto("Done");
          },
        },
      },
      Done: { terminal: "success" },
    },
  });
}

/** Intake with its Waiting state taken out. */
const IntakeWithoutWaiting = defineWorkflow({
  name: "Intake",
  tracks: tasks,
  initial: "Done",
  events: { Filed: z.object({ note: z.string() }) },
  states: { Done: { terminal: "success" } },
});

const Intake = intake(z.object({ note: z.string() }));

describe.each(DATABASE_KINDS)("a run whose workflow is wrong (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  /** Starts an Intake run and deposits the filer's note with the workflow as it was. */
  async function noteFiled(): Promise<{ id: string }> {
    fixture = await createRuntimeFixture(kind, { workflows: [Intake] });
    const task = await fixture.startTask(Intake, "Receipts");
    await fixture.runtime.deposit(Intake, { taskId: task.id, event: "Filed", payload: { note: "All here." }, by: fixture.filer.id });
    return task;
  }

  /** The same database, run by a runtime whose Intake is now `workflow` (as after a deploy). */
  function deployed(workflow: RegisteredWorkflow): Runtime {
    return createRuntime({ db: fixture.database.db, workflows: [workflow] });
  }

  async function expectStoppedForGood(taskId: string, cause: RegExp) {
    const failures = (await fixture.runtime.events(taskId)).filter((event) => event.kind === "failed");
    expect(failures).toMatchObject([{ data: { code: "definition_error", retryable: false, cause: expect.stringMatching(cause) } }]);
    const [task] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, taskId));
    expect(task?.status).toBe("failed");
    expect(await countRows(fixture.database.db, "workflow_instances", `task_id = '${taskId}' and status = 'failed'`)).toBe(1);
  }

  it("fails for good when an answer does not match its event's schema", async () => {
    const task = await noteFiled();
    await deployed(intake(z.object({ note: z.string(), amount: z.number() }))).drain();
    await expectStoppedForGood(task.id, /Filed .*does not match the event's schema \(amount: /);
  });

  it("fails for good when the run is in a state the workflow no longer declares", async () => {
    const task = await noteFiled();
    await deployed(IntakeWithoutWaiting).drain();
    await expectStoppedForGood(task.id, /the state "Waiting", which it no longer declares/);
  });

  it("fails for good when a handler throws a definition error", async () => {
    const task = await noteFiled();
    const strict = intake(z.object({ note: z.string() }), () => {
      throw definitionError("Filed needs an amount the form never asks for");
    });
    await deployed(strict).drain();
    await expectStoppedForGood(task.id, /^Filed needs an amount/);
  });

  it("refuses a retry, saying the workflow is wrong and to start a new run, and requeues nothing", async () => {
    const task = await noteFiled();
    await deployed(intake(z.object({ note: z.number() }))).drain();
    const retrying = fixture.runtime.retry(Intake, task.id);
    await expect(retrying).rejects.toBeInstanceOf(AppError);
    await expect(retrying).rejects.toMatchObject({
      code: "definition_error",
      message: expect.stringMatching(/^This run stopped because the workflow Intake is wrong: .*Fix the workflow and start a new run/),
    });
    expect(await countRows(fixture.database.db, "jobs", "status = 'failed'")).toBe(1);
    expect(await countRows(fixture.database.db, "jobs", "status = 'queued'")).toBe(0);
    await expectStoppedForGood(task.id, /note: /);
  });

  it("tells a run that ended in its own error state nothing about a wrong workflow: a retry has nothing to requeue", async () => {
    const Refusing = defineWorkflow({
      name: "Intake",
      tracks: tasks,
      initial: "Waiting",
      events: { Filed: z.object({ note: z.string() }) },
      states: {
        Waiting: { subscribe: { Filed: { assignee: (run) => run.item.createdBy } }, on: { Filed: (run) => run.goto("Refused") } },
        Refused: { terminal: "error", message: "the filer refused" },
      },
    });
    fixture = await createRuntimeFixture(kind, { workflows: [Refusing] });
    const task = await fixture.startTask(Refusing, "Receipts");
    await fixture.runtime.deposit(Refusing, { taskId: task.id, event: "Filed", payload: { note: "No." }, by: fixture.filer.id });
    await fixture.runtime.drain();
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("failed");
    expect(await fixture.runtime.retry(Refusing, task.id)).toBe(0);
  });

  it("stays retryable when the failure passes (a model that was down)", async () => {
    const task = await noteFiled();
    const flaky = intake(z.object({ note: z.string() }), () => {
      throw new AppError("model_unavailable", "The model could not be reached.");
    });
    await deployed(flaky).drain();
    const failures = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "failed");
    expect(failures).toMatchObject([{ data: { code: "model_unavailable", retryable: true } }]);
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row?.status).toBe("retryable");
    expect(await fixture.runtime.retry(Intake, task.id)).toBe(1);
  });
});
