import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createRegistry, defineApp, type Registry } from "@/lib/registry";
import { answerOf, type RegisteredWorkflow, shortFingerprint, workflowDefinition } from "@/lib/runtime";
import { keepDefinitions, runDefinitionNotice } from "@/lib/workflow-changes";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createRuntimeFixture, FileTask, PayBack, Payback, type RuntimeFixture } from "../runtime/fixture-workflow";
import { payBackChanged } from "./changed-workflows";

/** The registry of a deployment that runs `workflow` (PayBack as deployed), labelled for people. */
function registryOf(workflow: RegisteredWorkflow): Registry {
  return createRegistry({ apps: [defineApp({ name: "payback", workflows: [{ workflow, label: "Payback", describe: async () => new Map() }] })] });
}

const withIban = () => payBackChanged({ events: { PaidBack: answerOf(Payback.extend({ iban: z.string().describe("Your IBAN") })) } });

describe.each(DATABASE_KINDS)("a run page, after a deploy changed its workflow (%s)", (kind) => {
  let fixture: RuntimeFixture | undefined;
  afterEach(async () => {
    await fixture?.database.close();
    fixture = undefined;
  });

  /** A PayBack run parked on its questionnaire by the definition deployed before (kept, as its server kept it). */
  async function parkedRun(): Promise<{ id: string }> {
    fixture = await createRuntimeFixture(kind);
    await keepDefinitions(fixture.database.db, [FileTask, PayBack]);
    return fixture.startQuestionnaireTask();
  }

  it("says what changed in words and what it means for the run", async () => {
    const task = await parkedRun();
    const notice = await runDefinitionNotice(fixture!.database.db, registryOf(withIban()), task.id);
    expect(notice).toEqual({
      workflowLabel: "Payback",
      definition: shortFingerprint(workflowDefinition(PayBack).fingerprint),
      changes: ["The answer to “Paid back”: “Your IBAN” is new and required: questions already asked do not ask for it."],
      effects: [
        "The question the run waits on, already asked, is judged by the new schema: answers that were valid when it was asked may be refused, and when its attempts run out the run gets nothing.",
      ],
    });
  });

  it("is right that its question refuses an answer that was valid when it was asked", async () => {
    await parkedRun();
    const { runtime } = fixture!.restart({ workflows: [FileTask, withIban()] });
    const [question] = await runtime.questionsFor(fixture!.filer.id);
    const result = await runtime.submitAnswer({ questionId: question!.id, by: fixture!.filer.id, answer: { text: { method: "payroll", urgent: "n", attendees: "Ana" } } });
    expect(result).toMatchObject({ status: "refused", fieldErrors: { iban: expect.any(Array) } });
  });

  it("says so when the state the run is parked in is no longer in the workflow", async () => {
    const task = await parkedRun();
    // Asking was the initial state: a registry refuses a workflow whose initial state is gone, so the deploy starts runs in another.
    const notice = await runDefinitionNotice(fixture!.database.db, registryOf({ ...payBackChanged({ states: { Asking: undefined } }), initial: "Completed" }), task.id);
    expect(notice?.changes).toEqual(["Its state, “Asking”, is no longer in the workflow."]);
    expect(notice?.effects).toEqual(["Nothing can move a run parked there on: an answer or a deadline fails it."]);
  });

  it("says what a plain event takes now, for a run waiting for it", async () => {
    fixture = await createRuntimeFixture(kind);
    await keepDefinitions(fixture.database.db, [FileTask, PayBack]);
    const task = await fixture.startTask(FileTask);
    await fixture.runtime.drain();
    const deployed = { ...FileTask, events: { Answered: z.object({ text: z.string().min(10).describe("Your answer"), questionId: z.uuid().optional() }) } };
    const registry = createRegistry({ apps: [defineApp({ name: "filing", workflows: [{ workflow: deployed, label: "Filing", describe: async () => new Map() }] })] });
    expect((await runDefinitionNotice(fixture.database.db, registry, task.id))?.changes).toEqual(["What “Answered” takes: “Your answer” must now be at least 10 characters long."]);
  });

  it("says nothing when the change lets the run carry on", async () => {
    const task = await parkedRun();
    const compatible = payBackChanged({ events: { PaidBack: answerOf(Payback.extend({ iban: z.string().optional() })) } });
    expect(await runDefinitionNotice(fixture!.database.db, registryOf(compatible), task.id)).toBeUndefined();
  });

  it("says nothing of a run on the definition running now", async () => {
    const task = await parkedRun();
    expect(await runDefinitionNotice(fixture!.database.db, registryOf(PayBack), task.id)).toBeUndefined();
  });

  it("says nothing of a run that has ended", async () => {
    const task = await parkedRun();
    const [question] = await fixture!.runtime.questionsFor(fixture!.filer.id);
    await fixture!.runtime.submitAnswer({ questionId: question!.id, by: fixture!.filer.id, answer: { text: { method: "payroll", urgent: "n", attendees: "Ana" } } });
    await fixture!.runtime.drain();
    expect(await runDefinitionNotice(fixture!.database.db, registryOf(withIban()), task.id)).toBeUndefined();
  });
});
