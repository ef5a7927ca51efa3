import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { workflowInstances } from "@/db/schema";
import { tasks } from "@/lib/registry";
import { answerOf, compareDefinitions, workflowDefinition } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { payBackChanged } from "../workflow-changes/changed-workflows";
import { createRuntimeFixture, FileTask, PayBack, Payback, type RuntimeFixture } from "./fixture-workflow";

describe.each(DATABASE_KINDS)("the definition a run was moved by (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  async function fingerprintOfRun(taskId: string): Promise<string | null | undefined> {
    const [run] = await fixture!.database.db.select().from(workflowInstances).where(eq(workflowInstances.taskId, taskId));
    return run?.definitionFingerprint;
  }

  it("is kept with the run when it starts", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    expect(await fingerprintOfRun(task.id)).toBe(workflowDefinition(PayBack).fingerprint);
  });

  it("is the definition running when the run last entered a state", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startTask(FileTask);
    const deployed = { ...FileTask, states: { ...FileTask.states, Completed: { terminal: "success" as const, label: "Filed" } } };
    const { runtime } = fixture.restart({ workflows: [deployed, PayBack] });
    // The Clerk's first turn moves the run to Waiting under the definition deployed meanwhile.
    await runtime.drain();
    expect(await fingerprintOfRun(task.id)).toBe(workflowDefinition(deployed).fingerprint);
    expect(workflowDefinition(deployed).fingerprint).not.toBe(workflowDefinition(FileTask).fingerprint);
  });

  it("changed compatibly under a parked run: an answer still resumes it, and it moves on under the new definition", async () => {
    fixture = await createRuntimeFixture(kind);
    const task = await fixture.startQuestionnaireTask();
    const deployed = payBackChanged({ events: { PaidBack: answerOf(Payback.extend({ iban: z.string().optional().describe("Your IBAN, if it changed") })) } });
    expect(compareDefinitions(workflowDefinition(PayBack).description, workflowDefinition(deployed).description)).toEqual([]);
    const { runtime } = fixture.restart({ workflows: [FileTask, deployed] });
    const [question] = await runtime.questionsFor(fixture.filer.id);
    const result = await runtime.submitAnswer({ questionId: question!.id, by: fixture.filer.id, answer: { text: { method: "payroll", urgent: "n", attendees: "Ana" } } });
    expect(result).toMatchObject({ status: "answered" });
    await runtime.drain();
    const [row] = await fixture.database.db.select().from(tasks).where(eq(tasks.id, task.id));
    expect(row).toMatchObject({ status: "completed", input: { payback: { method: "payroll", urgent: false, attendees: ["Ana"] } } });
    expect(await fingerprintOfRun(task.id)).toBe(workflowDefinition(deployed).fingerprint);
  });
});
