import type { z } from "zod";
import type { RegisteredWorkflow } from "@/lib/runtime";
import { PayBack } from "../runtime/fixture-workflow";

/**
 * The runtime's PayBack as a deploy changed it: the same name and the same code, with some events and
 * states replaced (undefined takes one away). A new object each time, as a new deploy's module is.
 */
export function payBackChanged(change: { events?: Record<string, z.ZodType | undefined>; states?: Record<string, unknown> } = {}): RegisteredWorkflow {
  const drop = <T>(entries: Record<string, T | undefined>) => Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
  return { ...PayBack, events: drop({ ...PayBack.events, ...change.events }), states: drop({ ...PayBack.states, ...change.states }) } as unknown as RegisteredWorkflow;
}
