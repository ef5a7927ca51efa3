import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { loadAuditPage } from "@/lib/audit";
import { tasks } from "@/lib/registry";
import { createScriptedModel, type ScriptedReply } from "@/lib/models/scripted-model";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { countRows } from "./agents";
import { clerkScript, createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("a model error (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  /** The Clerk on a model whose first call goes wrong as `failure` says. */
  async function taskWithFirstCall(failure: ScriptedReply, turnTimeoutMs?: number) {
    let calls = 0;
    const model = createScriptedModel({ respond: (prompt) => (++calls === 1 ? failure : clerkScript(prompt)) });
    fixture = await createRuntimeFixture(kind, { resolveModel: () => model, ...(turnTimeoutMs ? { turnTimeoutMs } : {}) });
    const task = await fixture.startTask();
    await fixture.runtime.drain();
    return task;
  }

  async function statusOf(taskId: string) {
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, taskId));
    return row?.status;
  }

  it("fails the turn, records the provider's cause, and leaves the task retryable", async () => {
    const task = await taskWithFirstCall({ error: "upstream overloaded", status: 529 });
    const events = await fixture.runtime.events(task.id);
    const [turnFailed] = events.filter((event) => event.kind === "turn-failed");
    expect(turnFailed).toMatchObject({ agent: "Clerk", data: { cause: "upstream overloaded" } });
    expect(events.filter((event) => event.kind === "failed")).toMatchObject([{ data: { code: "model_unavailable", retryable: true } }]);
    expect(await statusOf(task.id)).toBe("retryable");
    expect(await countRows(fixture.database.db, "jobs", "status = 'failed'")).toBe(1);
  });

  it("that is a timeout fails the turn the same way", async () => {
    const task = await taskWithFirstCall({ delayMs: 5_000, then: { text: "too late" } }, 50);
    const [turnFailed] = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "turn-failed");
    expect(String(turnFailed?.data.cause)).toMatch(/timeout|abort/i);
    expect(await statusOf(task.id)).toBe("retryable");
  });

  it("says who retried it, on the run and in the audit log", async () => {
    const task = await taskWithFirstCall({ error: "upstream overloaded" });
    expect(await fixture.runtime.retry(FileTask, task.id, { by: fixture.outsider.id })).toBe(1);
    // A second retry finds nothing to requeue, and records nothing.
    expect(await fixture.runtime.retry(FileTask, task.id, { by: fixture.filer.id })).toBe(0);
    const retried = (await fixture.runtime.events(task.id)).filter((event) => event.kind === "retried");
    expect(retried.map((event) => event.data)).toEqual([{ by: fixture.outsider.id }]);
    const { lines } = await loadAuditPage(fixture.database.db, { category: "runs" }, { workflowLabel: (name) => name });
    expect(lines.map((line) => [line.actor.name, line.verb, line.taskId])).toEqual([[fixture.outsider.name, "retried", task.id]]);
  });

  it("is retried on request and the run carries on to park", async () => {
    const task = await taskWithFirstCall({ error: "upstream overloaded" });
    expect(await fixture.runtime.retry(FileTask, task.id)).toBe(1);
    await fixture.runtime.drain();
    expect(await statusOf(task.id)).toBe("waiting");
    expect(await countRows(fixture.database.db, "conversation_messages", "role = 'assistant'")).toBe(1);
  });
});
