import type { z } from "zod";
import type { Agent, EventSchemas, StartInput, TrackedTable, Workflow, WorkflowAgents, WorkflowDefinition, WorkflowItem } from "./types";

/**
 * Declares a workflow. State names are inferred from `states`; `goto` and `initial` accept only
 * those; the park state (`Waiting`) cannot be terminal. `agents` names the agents its state code
 * calls, by reference, each under its name; `input` (over a table that keeps the start input, like `tasks`) types
 * `run.item.input` as the start schema's output. What types cannot see is checked when the registry
 * is built, or a runtime starts with it (`checkWorkflows`).
 */
export function defineWorkflow<
  S extends string,
  E extends EventSchemas = Record<never, z.ZodType>,
  T extends TrackedTable = TrackedTable,
  A extends WorkflowAgents = Record<never, Agent>,
  I extends StartInput = never,
>(definition: WorkflowDefinition<S, E, T, A, I>): Workflow<S, E, WorkflowItem<T, I>, A> {
  return {
    name: definition.name,
    tracks: definition.tracks,
    initial: definition.initial,
    events: (definition.events ?? {}) as E,
    states: definition.states,
    agents: definition.agents ?? ({} as A),
    ...(definition.input ? { input: definition.input } : {}),
  };
}
