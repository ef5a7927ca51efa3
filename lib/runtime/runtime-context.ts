import type { Db } from "@/db/client";
import type { Announce, Commit } from "./announce";
import type { AnyWorkflow } from "./types";

/**
 * What the runtime's parts share, made once by `createRuntime`. Each part takes only the fields it
 * needs (a `Pick` of this), handed in as an argument, so a test can build a part alone.
 */
export interface RuntimeContext {
  readonly db: Db;
  /** The runtime's clock. */
  readonly now: () => Date;
  /** Runs work in one transaction over `db` and announces the changes it reports, inside that transaction. */
  readonly commit: Commit;
  /** The caller's hook, for work that commits inside a transaction the caller already holds. */
  readonly announce: Announce | undefined;
  /** Names this runtime in the leases of the jobs it holds. */
  readonly workerId: string;
  /** A registered workflow by name; throws for one this runtime does not run. */
  workflowNamed(name: string): AnyWorkflow;
}

/** Looks workflows up by name among those a runtime registers. */
export function workflowLookup(workflows: readonly AnyWorkflow[]): (name: string) => AnyWorkflow {
  const registry = new Map<string, AnyWorkflow>();
  for (const workflow of workflows) registry.set(workflow.name, workflow);
  return (name) => {
    const workflow = registry.get(name);
    if (!workflow) throw new Error(`workflow ${name} is not registered with this runtime`);
    return workflow;
  };
}
