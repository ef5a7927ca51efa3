import { tasks } from "@/lib/registry";
import { type Agent, agentAnswered, type RegisteredWorkflow } from "@/lib/runtime";

/**
 * An agent's loop workflow that is right, as plain data (no types to catch anything, so a test can
 * get the wiring wrong on purpose): under `name`, naming `agents`, starting in `initial`.
 */
export function loopWorkflowData(name: string, agents: Record<string, Agent> = {}, initial = "Running"): RegisteredWorkflow {
  const workflow = {
    name,
    tracks: tasks,
    initial,
    events: { Answered: agentAnswered() },
    states: {
      Running: { enter: () => undefined },
      Waiting: { subscribe: { Answered: {} }, on: { Answered: () => undefined } },
      Done: { terminal: "success" },
    },
    agents,
  };
  return workflow as unknown as RegisteredWorkflow;
}
