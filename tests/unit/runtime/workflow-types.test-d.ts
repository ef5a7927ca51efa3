import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { reviewTasks } from "@/examples/expense-review/schema";
import { defineAgent, defineWorkflow, type Transition } from "@/lib/runtime";

const WithWaiting = defineWorkflow({
  name: "WithWaiting",
  tracks: reviewTasks,
  initial: "Running",
  events: { Answered: z.object({ text: z.string() }) },
  states: {
    Running: { enter: (run) => run.goto("Waiting") },
    Waiting: {
      subscribe: { Answered: { within: { days: 2 }, unfinished: (run) => run.goto("Failed") } },
      on: {
        Answered(run, payload) {
          expectTypeOf(payload).toEqualTypeOf<{ text: string }>();
          expectTypeOf(run.item.claimId).toEqualTypeOf<string>();
          return run.goto("Completed");
        },
      },
    },
    Completed: { terminal: "success" },
    Failed: { terminal: "error", message: "it failed" },
  },
});

const WithoutWaiting = defineWorkflow({
  name: "WithoutWaiting",
  tracks: reviewTasks,
  initial: "Running",
  states: { Running: { enter: (run) => run.goto("Done") }, Done: { terminal: "success" } },
});

describe("workflow types", () => {
  it("infer the declared states", () => {
    expectTypeOf(WithWaiting.initial).toEqualTypeOf<"Running" | "Waiting" | "Completed" | "Failed">();
  });

  it("reject a goto to an undeclared state", () => {
    defineWorkflow({
      name: "Typo",
      tracks: reviewTasks,
      initial: "Running",
      states: {
        // @ts-expect-error "Complete" is not a declared state
        Running: { enter: (run) => run.goto("Complete") },
        Completed: { terminal: "success" },
      },
    });
    expectTypeOf<Transition<"Running" | "Completed">["to"]>().toEqualTypeOf<"Running" | "Completed">();
  });

  it("reject an undeclared initial state", () => {
    defineWorkflow({
      name: "NoStart",
      tracks: reviewTasks,
      // @ts-expect-error "Begin" is not a declared state
      initial: "Begin",
      states: { Done: { terminal: "success" } },
    });
  });

  it("accept a loop with a Waiting state", () => {
    defineAgent({ name: "Looped", prompt: "p", memory: "persistent", loop: () => WithWaiting });
  });

  it("reject a loop without a Waiting state", () => {
    // @ts-expect-error a loop must declare a Waiting state to park in
    defineAgent({ name: "Unparkable", prompt: "p", memory: "persistent", loop: () => WithoutWaiting });
  });

  it("type a handler's payload from the event's schema", () => {
    defineWorkflow({
      name: "Payload",
      tracks: reviewTasks,
      initial: "Waiting",
      events: { Answered: z.object({ text: z.string() }) },
      states: {
        Waiting: {
          on: {
            // @ts-expect-error the payload has `text`, not `answer`
            Answered: (run, payload: { answer: number }) => (payload.answer ? run.goto("Waiting") : undefined),
          },
        },
      },
    });
  });
});

describe("a subscription's clock", () => {
  it("needs an unfinished branch", () => {
    defineWorkflow({
      name: "Clockwork",
      tracks: reviewTasks,
      initial: "Waiting",
      events: { Answered: z.object({ text: z.string() }) },
      states: {
        Waiting: {
          // @ts-expect-error `within` without `unfinished`
          subscribe: { Answered: { within: { days: 1 } } },
        },
      },
    });
  });
});
