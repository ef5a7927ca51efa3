import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "@/db/client";
import { loadAuditPage } from "@/lib/audit";
import { AppError } from "@/lib/errors";
import { createRegistry, defineApp, defineStart, describePlatformTasks, startPlatformTask, type WorkflowEntry } from "@/lib/registry";
import { startRunOnce } from "@/lib/runs";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, PayBack, type RuntimeFixture } from "../runtime/fixture-workflow";

/** A start form over the fixture's workflow: a title, and the run starts with its task in one transaction. */
function startable(workflow: typeof FileTask | typeof PayBack): WorkflowEntry {
  return {
    workflow,
    label: workflow.name,
    describe: (db, taskIds) => describePlatformTasks(db, taskIds),
    start: defineStart({
      input: z.object({ title: z.string().describe("What is it?") }),
      run: async ({ db, runtime, by }, input) => ({ taskId: (await startPlatformTask(db, runtime, workflow, { title: input.title, input, by })).id }),
    }),
  };
}

describe.each(DATABASE_KINDS)("a start form submitted twice (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  async function setUp() {
    fixture = await createRuntimeFixture(kind, { workflows: [FileTask, PayBack] });
    const registry = createRegistry({ apps: [defineApp({ name: "forms", workflows: [startable(FileTask), startable(PayBack)] })] });
    const entry = registry.entry(FileTask.name)!;
    const submit = (token: string, by = fixture!.outsider.id, which = entry) =>
      startRunOnce(fixture!.database.db, which, { token, input: { title: "Travel receipts" }, context: { runtime: fixture!.runtime, by, now: new Date() } });
    const runs = async () => (await queryRows<{ task_id: string }>(fixture!.database.db, sql`select task_id from workflow_instances order by created_at`)).map((row) => row.task_id);
    return { registry, entry, submit, runs };
  }

  it("starts one run when the reply to the first was lost and the operator sends it again; both answers point to it", async () => {
    const { submit, runs } = await setUp();
    const token = randomUUID();
    // The first submission commits its run; its reply never reaches the operator (the server died), so they send the form again.
    const first = await submit(token);
    const again = await submit(token);
    expect(first).toEqual({ status: "started", taskId: expect.any(String) });
    expect(again).toEqual({ status: "already_started", taskId: first.taskId });
    expect(await runs()).toEqual([first.taskId]);
  });

  it("starts one run for a double click, the two submissions at once", async () => {
    const { submit, runs } = await setUp();
    const token = randomUUID();
    const answers = await Promise.all([submit(token), submit(token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual(["already_started", "started"]);
    expect(answers[0]!.taskId).toBe(answers[1]!.taskId);
    expect(await runs()).toEqual([answers[0]!.taskId]);
  });

  it("records one start in the audit log, by the person who sent the form, however often it was sent", async () => {
    const { submit } = await setUp();
    const token = randomUUID();
    const [first] = await Promise.all([submit(token), submit(token)]);
    await submit(token);
    const { lines } = await loadAuditPage(fixture!.database.db, { category: "runs" }, { workflowLabel: (name) => name });
    expect(lines.map((line) => [line.actor.name, line.verb, line.subject?.label, line.taskId])).toEqual([
      [fixture!.outsider.name, "started", `a run of ${FileTask.name}`, first!.taskId],
    ]);
  });

  it("refuses another person's form, and a form of another workflow, plainly, starting nothing", async () => {
    const { registry, submit, runs } = await setUp();
    const token = randomUUID();
    const first = await submit(token);
    await expect(submit(token, fixture!.filer.id)).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("someone else") });
    await expect(submit(token, fixture!.outsider.id, registry.entry(PayBack.name)!)).rejects.toMatchObject({ code: "conflict", message: expect.stringContaining("another workflow") });
    await expect(submit("not-a-token")).rejects.toBeInstanceOf(AppError);
    expect(await runs()).toEqual([first.taskId]);
    // A new form (a new token) starts a new run.
    expect((await submit(randomUUID())).status).toBe("started");
    expect(await runs()).toHaveLength(2);
  });
});
