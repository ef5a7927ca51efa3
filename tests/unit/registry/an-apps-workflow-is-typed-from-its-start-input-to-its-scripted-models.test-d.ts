import type { LanguageModelV3 } from "@ai-sdk/provider";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { createTestKit } from "parley/testing";
import { agentAnswered, defineAgent, defineApp, defineWorkflow, describePlatformTasks, findPlatformTask, inputFacts, type Runtime, startPlatformTask, tasks, turn, type Db } from "parley/workflows";

// Written against the SDK entry alone, as an adopter writes it.

const refundInput = z.object({ order: z.string(), cents: z.number(), urgent: z.boolean().default(false) });

const Refunder = defineAgent({ name: "Refunder", prompt: "You refund orders.", memory: "persistent", loop: () => Refund });

const Refund = defineWorkflow({
  name: "Refund",
  tracks: tasks,
  input: refundInput,
  agents: { Refunder },
  initial: "Checking",
  events: { Answered: agentAnswered() },
  states: {
    Checking: {
      async enter(run) {
        expectTypeOf(run.item.input).toEqualTypeOf<{ order: string; cents: number; urgent: boolean }>();
        // @ts-expect-error — the start input has no such field
        void run.item.input.amount;
        const reply = await Refunder.ask(run.item, [turn.user(`Refund ${run.item.input.order}`)]);
        return reply.parked ? run.goto("Waiting") : run.goto("Done");
      },
    },
    Waiting: {
      subscribe: { Answered: { assignee: (run) => (run.item.input.urgent ? run.item.createdBy : null) } },
      on: { Answered: (run) => run.goto("Done") },
    },
    Done: { terminal: "success" },
  },
});

const model = () => ({}) as LanguageModelV3;
const entry = { workflow: Refund, label: "Refund", describe: async () => new Map() };

describe("an app's workflow, typed end to end", () => {
  it("types run.item.input as the start schema's output in every handler", () => {
    expectTypeOf<Parameters<typeof startPlatformTask<typeof Refund>>[3]["input"]>().toEqualTypeOf<{ order: string; cents: number; urgent: boolean }>();
  });

  it("takes scripted models keyed by the names of the workflow's agents", () => {
    defineApp({ name: "refunds", workflows: [{ ...entry, scripted: { Refunder: model } }] });
  });

  it("refuses a scripted model under a name the workflow's agents do not have", () => {
    // @ts-expect-error — no agent of Refund is named "Refunderr"
    defineApp({ name: "refunds", workflows: [{ ...entry, scripted: { Refunderr: model } }] });
    // @ts-expect-error — another workflow's agent, not one Refund names
    defineApp({ name: "refunds", workflows: [{ ...entry, scripted: { Other: model } }] });
  });

  it("refuses a start input that is not the workflow's", async () => {
    const start = (db: Db, runtime: Runtime) =>
      // @ts-expect-error — cents is a number in Refund's start input
      startPlatformTask(db, runtime, Refund, { title: "Refund 42", input: { order: "42", cents: "12.00", urgent: false }, by: null });
    expectTypeOf(start).toBeFunction();
  });

  it("hands describe and context the start input, typed", async () => {
    const db = {} as Db;
    await describePlatformTasks(db, [], Refund, (input) => {
      expectTypeOf(input.cents).toEqualTypeOf<number>();
      return input.order;
    });
    const task = await findPlatformTask(db, "id", Refund);
    if (task) {
      expectTypeOf(task.input.order).toEqualTypeOf<string>();
      inputFacts(task.input, { order: "Order", cents: "Amount" });
      // @ts-expect-error — the start input has no field "amount" to label
      inputFacts(task.input, { order: "Order", amount: "Amount" });
    }
  });

  it("keys the test kit's models by the names of the app's agents", () => {
    const app = defineApp({ name: "refunds", workflows: [entry] });
    const kit = () => createTestKit({ app, models: { Refunder: model } });
    // @ts-expect-error — no agent of the app is named "Refunderr"
    const typo = () => createTestKit({ app, models: { Refunderr: model } });
    expectTypeOf(kit).toBeFunction();
    expectTypeOf(typo).toBeFunction();
  });
});
