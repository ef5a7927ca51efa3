import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Db } from "@/db/client";
import { tasks } from "@/lib/registry";
import { type AgentDefinition, agentAnswered, createRuntime, defineAgent, type RegisteredWorkflow } from "@/lib/runtime";

/** Nothing runs before the check: a runtime that starts here never touches its database. */
const NO_DATABASE = {} as Db;

/** A workflow as plain JavaScript writes it: no types to catch anything. */
function plain(workflow: { name: string; initial: string; events?: Record<string, z.ZodType>; states: Record<string, unknown> }): RegisteredWorkflow {
  return { tracks: tasks, events: {}, ...workflow } as unknown as RegisteredWorkflow;
}

/** A loop workflow that is right, under `name`. */
function loop(name: string, overrides: { events?: Record<string, z.ZodType>; states?: Record<string, unknown> } = {}) {
  return plain({
    name,
    initial: "Running",
    events: overrides.events ?? { Answered: agentAnswered() },
    states: overrides.states ?? {
      Running: { enter: () => undefined },
      Waiting: { subscribe: { Answered: {} }, on: { Answered: () => undefined } },
      Done: { terminal: "success" },
    },
  });
}

/** `workflow`, naming an agent declared in plain JavaScript whose loop it is. */
function loopAgent(name: string, workflow: RegisteredWorkflow, memory: "persistent" | "none" = "persistent"): RegisteredWorkflow {
  const untyped: unknown = { name, prompt: "You file things.", memory, loop: () => named };
  const named: RegisteredWorkflow = { ...workflow, agents: { [name]: defineAgent(untyped as AgentDefinition) } };
  return named;
}

function start(...workflows: RegisteredWorkflow[]) {
  return () => createRuntime({ db: NO_DATABASE, workflows });
}

describe("a runtime starting with a wrong workflow", () => {
  it("refuses an initial state that is not one of the states, naming the workflow, the state and the fix", () => {
    const wrong = plain({ name: "Typo", initial: "Begin", states: { Done: { terminal: "success" } } });
    expect(start(wrong)).toThrow(/Typo: its initial state "Begin" is not one of its states \(Done\); name a declared state in `initial`/);
  });

  it("refuses a state that subscribes to an event the workflow does not declare", () => {
    const wrong = plain({ name: "Deaf", initial: "Waiting", events: {}, states: { Waiting: { subscribe: { Answerd: {} }, on: { Answerd: () => undefined } } } });
    expect(start(wrong)).toThrow(/Deaf, state Waiting: it subscribes to the event "Answerd", which the workflow does not declare; add it to `events`/);
  });

  it("refuses a handler for an event the workflow does not declare", () => {
    const wrong = plain({ name: "Stray", initial: "Waiting", events: { Filed: z.object({}) }, states: { Waiting: { on: { Filled: () => undefined } } } });
    expect(start(wrong)).toThrow(/Stray, state Waiting: it handles the event "Filled", which the workflow does not declare; add it to `events` \(declared: Filed\)/);
  });

  it("refuses a state that waits for an event it has no handler for", () => {
    const wrong = plain({ name: "Deafer", initial: "Waiting", events: { Filed: z.object({}) }, states: { Waiting: { subscribe: { Filed: {} } } } });
    expect(start(wrong)).toThrow(/Deafer, state Waiting: it waits for Filed but has no `on: \{ Filed\(run, payload\) \}` to take it/);
  });

  it("refuses a slot with a clock and no unfinished branch", () => {
    const wrong = plain({ name: "Clockless", initial: "Waiting", events: { Filed: z.object({}) }, states: { Waiting: { subscribe: { Filed: { within: { days: 1 } } }, on: { Filed: () => undefined } } } });
    expect(start(wrong)).toThrow(/Clockless, state Waiting: the Filed slot has a clock \(`within`\) but no `unfinished` branch/);
  });

  it("refuses an agent loop without persistent memory", () => {
    const workflow = loopAgent("Forgetful", loop("ForgetfulLoop"), "none");
    expect(start(workflow)).toThrow(/ForgetfulLoop \(the loop of agent Forgetful\): the agent asks people but its memory is "none"; declare it with `memory: "persistent"`/);
  });

  it("refuses a loop with no Waiting state to park in", () => {
    const workflow = loopAgent("Parker", loop("Parkless", { states: { Running: { enter: () => undefined }, Done: { terminal: "success" } } }));
    expect(start(workflow)).toThrow(/Parkless \(the loop of agent Parker\): it has no Waiting state for a parked run to wait in; add one that subscribes to Answered/);
  });

  it("refuses a loop whose Waiting state is terminal", () => {
    const workflow = loopAgent("Ender", loop("DeadEnd", { states: { Running: { enter: () => undefined }, Waiting: { terminal: "success" } } }));
    expect(start(workflow)).toThrow(/DeadEnd \(the loop of agent Ender\), state Waiting: a parked run waits there, but it is terminal/);
  });

  it("refuses a loop whose answer event does not take the runtime's answer to an ask", () => {
    const workflow = loopAgent("Shaper", loop("Misshapen", {
      events: { Answered: z.object({ answer: z.string() }) },
      states: { Waiting: { subscribe: { Answered: {} }, on: { Answered: () => undefined } } },
    }));
    expect(start(workflow)).toThrow(/Misshapen \(the loop of agent Shaper\): its Answered event does not take the runtime's answer to an agent's ask \(\{ text, questionId \}\); declare it as `Answered: agentAnswered\(\)`/);
  });

  it("refuses two workflows of one name", () => {
    const one = plain({ name: "Twin", initial: "Done", states: { Done: { terminal: "success" } } });
    expect(start(one, { ...one })).toThrow(/Twin: two registered workflows have this name; a run names its workflow, so rename one/);
  });

  it("names every mistake of every workflow in one error", () => {
    const typo = plain({ name: "First", initial: "Begin", states: { Done: { terminal: "success" } } });
    const deaf = plain({ name: "Second", initial: "Waiting", states: { Waiting: { on: { Nope: () => undefined } } } });
    let thrown: unknown;
    try {
      start(typo, deaf)();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: "definition_error", message: expect.stringMatching(/^Registered workflows have 2 mistakes:\n- First: .*\n- Second, state Waiting: /) });
  });

  it("starts with right workflows", () => {
    const workflow = loopAgent("Righteous", loop("RightLoop"));
    expect(start(workflow)).not.toThrow();
  });
});
