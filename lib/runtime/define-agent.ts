import { z } from "zod";
import { currentRunScope } from "./run-scope";
import type { Agent, AgentDefinition } from "./types";

/**
 * The event an agent's loop receives answers by — the runtime's own agent-answer shape
 * (`{ text, questionId? }`): `events: { Answered: agentAnswered() }`, handled by
 * `on: { Answered(run, { text, questionId }) }` and passed on with `agent.answer(…)`.
 */
export function agentAnswered() {
  return z.object({
    text: z.string().trim().min(1, "Please write an answer."),
    /** Which question this answers (the ask id); optional while only one is open. */
    questionId: z.uuid().optional(),
  });
}

/** The event name an agent's loop receives a person's answers by. */
export const LOOP_ANSWER_EVENT = "Answered";

/** The state an agent's loop parks in. */
export const LOOP_PARK_STATE = "Waiting";

/**
 * Every agent declared in this process, so a starting runtime can check the loops of the workflows
 * it registers. Kept on `globalThis`: a bundler may load this module more than once.
 */
const DECLARED = Symbol.for("parley.declared-agents");

/** The agents declared so far in this process (those with a loop are checked when a runtime starts). */
export function declaredAgents(): readonly Agent[] {
  return [...((globalThis as { [DECLARED]?: Set<Agent> })[DECLARED] ?? [])];
}

/** Declares an agent. */
export function defineAgent(definition: AgentDefinition): Agent {
  const agent: Agent = {
    ...definition,
    ask(task, turns) {
      return currentRunScope("ask").engine.ask(agent, task, turns);
    },
    answer(task, text, options) {
      return currentRunScope("answer").engine.answer(agent, task, text, options);
    },
  };
  if (definition.loop) {
    const store = globalThis as { [DECLARED]?: Set<Agent> };
    (store[DECLARED] ??= new Set()).add(agent);
  }
  return agent;
}
