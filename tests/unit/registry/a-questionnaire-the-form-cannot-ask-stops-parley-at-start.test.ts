import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Db } from "@/db/client";
import { createRegistry, RegistryError, tasks, type WorkflowEntry } from "@/lib/registry";
import { answerOf, createRuntime, defineWorkflow, person } from "@/lib/runtime";

// A workflow whose questionnaire the generated form cannot ask used to compile, start, and fail only
// when a run entered the state that asks it — marked retryable, to fail the same way on every retry.

/** Receipts as a list of objects: a list is typed on one line, so its items cannot be objects. */
const Reimbursement = z.object({
  approved: z.boolean().describe("Reimburse this claim?"),
  receipts: z.array(z.object({ amount: z.number(), shop: z.string() })).describe("Which receipts?"),
});

/** The same workflow around any questionnaire. */
function reimburseWith(questionnaire: z.ZodObject) {
  return defineWorkflow({
    name: "Reimburse",
    tracks: tasks,
    initial: "Review",
    events: { Reviewed: answerOf(questionnaire) },
    states: {
      Review: {
        async enter(run) {
          await person.ask(run, "Reviewed", { to: run.item.createdBy ?? "reviewer@parley.test" });
          return undefined;
        },
        subscribe: { Reviewed: {} },
        on: { Reviewed: (run) => run.goto("Done") },
      },
      Done: { terminal: "success" },
    },
  });
}

const Reimburse = reimburseWith(Reimbursement);

const entry: WorkflowEntry = { workflow: Reimburse, label: "Reimburse", describe: async () => new Map() };

describe("a workflow whose questionnaire the form cannot ask", () => {
  it("stops the registry from being built, naming the workflow, the state, the field and the fix", () => {
    const building = () => createRegistry({ apps: [{ name: "expenses", workflows: [entry] }] });
    expect(building).toThrow(RegistryError);
    expect(building).toThrow(/Reimburse, state Review: the form cannot ask the questionnaire of Reviewed \(field "receipts"\): a list of .* cannot be typed on one line\. Fix: make it text, a number/);
  });

  it("stops a runtime from starting with it, saying the same", () => {
    expect(() => createRuntime({ db: {} as Db, workflows: [Reimburse] })).toThrow(/Reimburse, state Review: the form cannot ask the questionnaire of Reviewed \(field "receipts"\)/);
  });

  it("is not refused once the field is one the form can ask", () => {
    const Fixed = reimburseWith(Reimbursement.extend({ receipts: z.array(z.string()) }));
    expect(() => createRegistry({ apps: [{ name: "expenses", workflows: [{ ...entry, workflow: Fixed }] }] })).not.toThrow();
  });
});
