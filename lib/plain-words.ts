import { humanizeName } from "@/lib/questions";
import type { Registry } from "@/lib/registry";

/**
 * A workflow's state as people read it on screens: the `label` its definition gives, else its name in
 * words (`NotReimbursed` → "Not reimbursed", `AwaitingApproval` → "Awaiting approval"). Code names are
 * for code: the API and the logs keep them.
 */
export function stateWords(registry: Pick<Registry, "entry">, workflow: string, state: string): string {
  const definition = registry.entry(workflow)?.workflow.states?.[state];
  return definition?.label ?? humanizeName(state);
}

/** An agent's name as people read it on screens (`ReleaseChecker` → "Release checker"). */
export function agentWords(agent: string): string {
  return humanizeName(agent);
}
