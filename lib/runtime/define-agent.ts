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
 * Declares an agent. It registers nothing: a workflow names the agents its state code calls
 * (`agents: { ReleaseChecker }`), and the registry and the runtime find them there. (Not generic on
 * purpose: an agent and its loop workflow refer to each other, and TypeScript types that circle only
 * through a call whose return type it need not infer.)
 */
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
  return agent;
}
