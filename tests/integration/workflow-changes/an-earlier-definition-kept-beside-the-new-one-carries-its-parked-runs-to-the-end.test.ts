import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { tasks, workflowInstances } from "@/db/schema";
import { createRegistry, defineApp } from "@/lib/registry";
import { answerOf, type RegisteredWorkflow } from "@/lib/runtime";
import { checkWorkflowChangesAtStart, keepDefinitions, runDefinitionNotice } from "@/lib/workflow-changes";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, PayBack, Payback, type RuntimeFixture } from "../runtime/fixture-workflow";
import { payBackChanged } from "./changed-workflows";

/**
 * What docs/workflow-changes.md tells a team to deploy when a change would break parked runs: the
 * definition those runs were parked by, kept under its name and started by nothing new, beside the
 * new definition under a name of its own.
 */
const PayBack2 = { ...payBackChanged({ events: { PaidBack: answerOf(Payback.extend({ iban: z.string().describe("Your IBAN") })) } }), name: "PayBack2" } as RegisteredWorkflow;

describe.each(DATABASE_KINDS)("an earlier definition kept under its name beside the new one (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  it("warns of nothing, explains nothing on its runs' pages, and carries its parked runs to the end while new runs start on the new one", async () => {
    fixture = await createRuntimeFixture(kind);
    const { database, filer } = fixture;
    await keepDefinitions(database.db, [FileTask, PayBack]);
    const parked = await fixture.startQuestionnaireTask();

    const deployed = [FileTask, PayBack, PayBack2];
    const lines: string[] = [];
    await checkWorkflowChangesAtStart(database.db, deployed, (line) => lines.push(line));
    expect(lines).toEqual([]);
    const registry = createRegistry({
      apps: [
        defineApp({
          name: "payback",
          workflows: [
            { workflow: PayBack2, label: "Payback", describe: async () => new Map() },
            { workflow: PayBack, label: "Payback (before IBANs)", describe: async () => new Map() },
          ],
        }),
      ],
    });
    expect(await runDefinitionNotice(database.db, registry, parked.id)).toBeUndefined();

    const { runtime } = fixture.restart({ workflows: deployed });
    const [task] = await database.db.insert(tasks).values({ workflow: "PayBack2", title: "After the deploy", input: {}, createdBy: filer.id }).returning();
    await runtime.start(PayBack2, task!);
    await runtime.drain();

    const questions = await runtime.questionsFor(filer.id);
    const old = questions.find((question) => question.taskId === parked.id)!;
    // Answered as it was asked: judged by the definition it was asked under, so no IBAN is wanted.
    expect(await runtime.submitAnswer({ questionId: old.id, by: filer.id, answer: { text: { method: "payroll", urgent: "n", attendees: "Ana" } } })).toMatchObject({ status: "answered" });
    const fresh = questions.find((question) => question.taskId === task!.id)!;
    expect(await runtime.submitAnswer({ questionId: fresh.id, by: filer.id, answer: { text: { method: "payroll", urgent: "n", attendees: "Ana" } } })).toMatchObject({
      status: "refused",
      fieldErrors: { iban: expect.any(Array) },
    });
    await runtime.drain();
    const [run] = await database.db.select().from(workflowInstances).where(eq(workflowInstances.taskId, parked.id));
    expect(run).toMatchObject({ workflow: "PayBack", status: "completed" });
  });
});
