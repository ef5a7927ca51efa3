import { describe, expect, it } from "vitest";
import { loopWorkflowData } from "@/tests/support/loop-workflow-data";
import type { Db } from "@/db/client";
import { type Agent, type AgentDefinition, createRuntime, defineAgent, type RegisteredWorkflow } from "@/lib/runtime";

/** Nothing runs before the check: a runtime that starts here never touches its database. */
const NO_DATABASE = {} as Db;

const loop = loopWorkflowData;

/** An agent declared in plain JavaScript whose loop is `workflow()` (resolved when checked). */
function agent(name: string, workflow: () => RegisteredWorkflow, memory: "persistent" | "none" = "persistent"): Agent {
  const untyped: unknown = { name, prompt: "You file things.", memory, loop: workflow };
  return defineAgent(untyped as AgentDefinition);
}

/** The message a runtime starting with `workflows` refuses them with, or undefined when it starts. */
function refusal(...workflows: RegisteredWorkflow[]): string | undefined {
  try {
    createRuntime({ db: NO_DATABASE, workflows });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describe("a runtime finding its agents through the workflows that name them", () => {
  it("refuses an agent whose loop workflow is not registered, naming the agent and the workflow", () => {
    const Home = loop("Home");
    const Wanderer = agent("Wanderer", () => Home);
    const Elsewhere = loop("Elsewhere", { Wanderer });
    expect(refusal(Elsewhere)).toMatch(/Agent Wanderer \(named by Elsewhere\): its loop is the workflow Home, which is not registered; register Home too/);
  });

  it("refuses a loop workflow that does not name the agent whose loop it is", () => {
    const Stray = agent("Stray", () => Home);
    const Home: RegisteredWorkflow = loop("Home");
    const Other = loop("Other", { Stray });
    expect(refusal(Home, Other)).toMatch(/Home: it is the loop of agent Stray but does not name it; add it to `agents: \{ Stray \}`/);
  });

  it("refuses two different agents of one name, saying so once", () => {
    const One: RegisteredWorkflow = loop("One", { Clerk: agent("Clerk", () => One) });
    const Two: RegisteredWorkflow = loop("Two", { Clerk: agent("Clerk", () => Two) });
    const message = refusal(One, Two) ?? "";
    expect(message).toMatch(/Agent Clerk: One and Two name two different agents of this name; an agent's conversations are kept by its name, so rename one/);
    expect(message.match(/two different agents/g)).toHaveLength(1);
  });

  it("refuses an agent named under a key that is not its name", () => {
    const Clerk = agent("Clerk", () => Filing);
    const Filing: RegisteredWorkflow = loop("Filing", { Clerc: Clerk });
    expect(refusal(Filing)).toMatch(/Filing: it names agent Clerk under the key "Clerc"; key each agent by its name \(`agents: \{ Clerk \}`\)/);
  });

  it("says a loop's mistake once though another workflow of its name, with an agent of its own, was declared in the process", () => {
    const Registered: RegisteredWorkflow = loop("Dup", { Forgetful: agent("Forgetful", () => Registered, "none") });
    // Declared in the same process, never registered: the runtime is not told of it, so it says nothing of its agent.
    const Unregistered: RegisteredWorkflow = loop("Dup", { Amnesiac: agent("Amnesiac", () => Unregistered, "none") });
    void Unregistered;
    const message = refusal(Registered) ?? "";
    expect(message.match(/its memory is "none"/g)).toHaveLength(1);
    expect(message).toMatch(/^A registered workflow is wrong:\n- Dup \(the loop of agent Forgetful\): the agent asks people but its memory is "none"/);
  });

  it("starts with a loop that names its agent", () => {
    const Clerk = agent("Clerk", () => Filing);
    const Filing: RegisteredWorkflow = loop("Filing", { Clerk });
    expect(refusal(Filing)).toBeUndefined();
  });
});

