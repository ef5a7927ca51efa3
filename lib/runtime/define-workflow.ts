import type { z } from "zod";
import type { EventSchemas, TrackedTable, Workflow, WorkflowDefinition } from "./types";

/**
 * Declares a workflow. State names are inferred from `states`; `goto` and `initial` accept only
 * those; the park state (`Waiting`) cannot be terminal. What types cannot see is checked when a
 * runtime starts with it (`createRuntime`).
 */
export function defineWorkflow<S extends string, E extends EventSchemas = Record<never, z.ZodType>, T extends TrackedTable = TrackedTable>(
  definition: WorkflowDefinition<S, E, T>,
): Workflow<S, E, T["$inferSelect"]> {
  return {
    name: definition.name,
    tracks: definition.tracks,
    initial: definition.initial,
    events: (definition.events ?? {}) as E,
    states: definition.states,
  };
}

