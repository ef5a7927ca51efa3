import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import { z } from "zod";
import type { AgentReply } from "./agent-reply";
import { currentRunScope } from "./run-scope";

/** What an agent keeps between calls. Only a persistent agent can ask a person: it must come back. */
export type AgentMemory = "persistent" | "none";

/** What the runtime deposits when a person answers an agent's ask: the words, and which ask they answer. */
export interface AgentAnswer {
  readonly text: string;
  /** The ask answered (its question id); optional while only one is open. */
  readonly questionId?: string | undefined;
}

/** An event that takes a person's answer to an agent's ask: what {@link agentAnswered} returns. */
export type AgentAnsweredEvent = z.ZodType<AgentAnswer>;

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
 * A workflow an agent can use as its loop: it parks in a `Waiting` state (which `defineWorkflow`
 * does not let be terminal), and declares the `Answered` event with the runtime's agent-answer
 * shape ({@link agentAnswered}). A workflow without either does not fit this type, so
 * `loop: () => it` does not compile.
 */
export interface LoopWorkflow {
  readonly name: string;
  readonly events: { readonly Answered: AgentAnsweredEvent };
  readonly states: { readonly Waiting: unknown };
}

/** The task an agent works on: anything with the tracked row's id. */
export interface TaskReference {
  readonly id: string;
}

interface AgentBasics {
  name: string;
  /** One line on what the agent is for, for screens. */
  purpose?: string;
  /** The system prompt. */
  prompt: string;
  /** Who the agent acts as, where that matters. */
  principal?: { email: string };
  /** Tools of the agent's own (with `execute`). */
  tools?: ToolSet;
  /** A model for this agent; otherwise the runtime's `resolveModel` decides. */
  model?: LanguageModel;
}

/**
 * What `defineAgent` takes. An agent with a `loop` asks people, so it must come back to their
 * answers: a loop without `memory: "persistent"` does not compile.
 */
export type AgentDefinition = AgentBasics &
  (
    | {
        memory: "persistent";
        /** The workflow the agent runs in; having one is what offers the agent the ask tool. */
        loop?: () => LoopWorkflow;
      }
    | { memory: AgentMemory; loop?: undefined }
  );

/** A declared agent. `ask` and `answer` run inside a workflow's state code. */
export type Agent = Readonly<AgentDefinition> & {
  /** Gives the agent these turns; it replies, or asks a person and parks. */
  ask(task: TaskReference, turns: readonly ModelMessage[]): Promise<AgentReply>;
  /**
   * Writes a person's answer as the result of the agent's pending question (the only one, or the
   * one named) and, once no question is pending, lets the agent carry on.
   */
  answer(task: TaskReference, text: string, options?: { questionId?: string }): Promise<AgentReply>;
};

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
