import { describe, expect, it } from "vitest";
import { loopWorkflowData } from "@/tests/support/loop-workflow-data";
import type { Db } from "@/db/client";
import { createRegistry, RegistryError, type WorkflowEntry } from "@/lib/registry";
import { type AgentDefinition, createRuntime, defineAgent, type RegisteredWorkflow } from "@/lib/runtime";

const loop = loopWorkflowData;

function entryOf(workflow: RegisteredWorkflow, more: Partial<WorkflowEntry> = {}): WorkflowEntry {
  return { workflow, label: workflow.name, describe: async () => new Map(), ...more };
}

/** A registry of one app with these entries. */
const registryOf = (...entries: WorkflowEntry[]) => createRegistry({ apps: [{ name: "filing", workflows: entries }] });

describe("the registry, as it is built", () => {
  it("is refused for a workflow the runtime would refuse, naming the workflow and the fix", () => {
    const building = () => registryOf(entryOf(loop("Typo", {}, "Begin")));
    expect(building).toThrow(RegistryError);
    expect(building).toThrow(/Typo: its initial state "Begin" is not one of its states \(Running, Waiting, Done\); name a declared state in `initial`/);
  });

  it("is refused for a scripted model of an agent its workflow does not name", () => {
    const scripted = { Clerc: () => ({}) } as unknown as WorkflowEntry["scripted"];
    expect(() => registryOf(entryOf(loop("Filing"), { scripted }))).toThrow(
      /Workflow "Filing" \(app "filing"\) gives a scripted model for agent "Clerc", which it does not name in `agents` \(none\): key it by one of its agents' names/,
    );
  });

  it("checks its workflows once: a runtime built on them does not check them again", () => {
    let resolved = 0;
    const untyped: unknown = { name: "Clerk", prompt: "You file things.", memory: "persistent", loop: () => (resolved++, Filing) };
    const Filing: RegisteredWorkflow = loop("Filing", { Clerk: defineAgent(untyped as AgentDefinition) });
    const registry = registryOf(entryOf(Filing));
    const checked = resolved;
    createRuntime({ db: {} as Db, workflows: registry.workflows });
    createRuntime({ db: {} as Db, workflows: registry.workflows });
    expect(checked).toBeGreaterThan(0);
    expect(resolved).toBe(checked);
  });
});
