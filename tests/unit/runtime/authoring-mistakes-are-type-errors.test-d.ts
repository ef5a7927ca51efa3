import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { tasks } from "@/lib/registry";
import { type AgentAnswer, agentAnswered, answerOf, defineAgent, defineWorkflow, type LoopWorkflow, person, type QuestionnaireEvent } from "@/lib/runtime";

const Receipt = z.object({ amount: z.number(), merchant: z.string() });

/** A loop as the runtime wants one: parks in a Waiting that is not terminal, answered by `agentAnswered()`. */
const GoodLoop = defineWorkflow({
  name: "GoodLoop",
  tracks: tasks,
  initial: "Running",
  events: { Answered: agentAnswered(), Receipted: answerOf(Receipt) },
  states: {
    Running: { enter: (run) => run.goto("Waiting") },
    Waiting: {
      subscribe: { Answered: {} },
      on: {
        Answered(run, payload) {
          expectTypeOf(payload).toEqualTypeOf<{ text: string; questionId?: string | undefined }>();
          return run.goto("Asking");
        },
      },
    },
    Asking: {
      async enter(run) {
        await person.ask(run, "Receipted", { to: "someone", title: "Your receipt" });
        return undefined;
      },
      on: { Receipted: (run, answer) => (answer.ok && answer.value.amount > 0 ? run.goto("Done") : run.goto("Done")) },
    },
    Done: { terminal: "success" },
  },
});

/** A loop whose answer event is not the runtime's agent-answer shape. */
const HomemadeLoop = defineWorkflow({
  name: "HomemadeLoop",
  tracks: tasks,
  initial: "Waiting",
  events: { Answered: z.object({ answer: z.string() }) },
  states: { Waiting: { subscribe: { Answered: {} }, on: { Answered: (run) => run.goto("Waiting") } } },
});

describe("an agent's loop", () => {
  it("fits when it parks in a non-terminal Waiting and takes answers by agentAnswered()", () => {
    expectTypeOf(GoodLoop).toExtend<LoopWorkflow>();
    defineAgent({ name: "Good", prompt: "p", memory: "persistent", loop: () => GoodLoop });
  });

  it("is refused when its answer event is not the runtime's agent-answer shape", () => {
    expectTypeOf(HomemadeLoop).not.toExtend<LoopWorkflow>();
    // @ts-expect-error Answered must take { text, questionId? }: declare it with agentAnswered()
    defineAgent({ name: "Homemade", prompt: "p", memory: "persistent", loop: () => HomemadeLoop });
  });

  it("cannot park in a terminal state", () => {
    defineWorkflow({
      name: "DeadEndLoop",
      tracks: tasks,
      initial: "Running",
      events: { Answered: agentAnswered() },
      states: {
        Running: { enter: (run) => run.goto("Waiting") },
        // @ts-expect-error a parked run waits in Waiting, so it cannot be terminal
        Waiting: { terminal: "success" },
      },
    });
    defineWorkflow({ name: "EndsElsewhere", tracks: tasks, initial: "Done", states: { Done: { terminal: "success" } } });
  });

  it("is refused to an agent without persistent memory", () => {
    // @ts-expect-error an agent that asks people must come back to their answers: memory "persistent"
    defineAgent({ name: "Forgetful", prompt: "p", memory: "none", loop: () => GoodLoop });
    defineAgent({ name: "Loner", prompt: "p", memory: "none" });
  });

  it("types what agentAnswered() takes as the runtime's agent answer", () => {
    expectTypeOf<z.output<ReturnType<typeof agentAnswered>>>().toEqualTypeOf<{ text: string; questionId?: string | undefined }>();
    expectTypeOf<z.output<ReturnType<typeof agentAnswered>>>().toExtend<AgentAnswer>();
  });
});

describe("person.ask", () => {
  it("accepts only the events the workflow declared with answerOf", () => {
    expectTypeOf<QuestionnaireEvent<typeof GoodLoop.events>>().toEqualTypeOf<"Receipted">();
  });

  it("is refused an event the workflow did not declare", () => {
    defineWorkflow({
      name: "Undeclared",
      tracks: tasks,
      initial: "Asking",
      events: { Receipted: answerOf(Receipt) },
      states: {
        Asking: {
          async enter(run) {
            // @ts-expect-error "Reimbursed" is not one of this workflow's events
            await person.ask(run, "Reimbursed", { to: "someone" });
            return undefined;
          },
          on: { Receipted: (run) => run.goto("Asking") },
        },
      },
    });
  });

  it("is refused an event that is not a person's answer (not answerOf)", () => {
    defineWorkflow({
      name: "NotAQuestionnaire",
      tracks: tasks,
      initial: "Asking",
      events: { Answered: agentAnswered() },
      states: {
        Asking: {
          async enter(run) {
            // @ts-expect-error Answered takes an agent's answer, not a questionnaire's
            await person.ask(run, "Answered", { to: "someone" });
            return undefined;
          },
        },
      },
    });
  });
});
