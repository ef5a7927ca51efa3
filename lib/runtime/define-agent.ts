import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import type { AgentReply } from "./agent-reply";
import { currentRunScope } from "./run-scope";

/** What an agent keeps between calls. Only a persistent agent can ask a person: it must come back. */
export type AgentMemory = "persistent" | "none";

/**
 * A workflow an agent can use as its loop: it must declare a `Waiting` state, where a parked run
 * waits. A workflow without one does not fit this type, so `loop: () => it` does not compile.
 */
export interface LoopWorkflow {
  readonly name: string;
  readonly states: { readonly Waiting: unknown };
}

/** The task an agent works on: anything with the tracked row's id. */
export interface TaskReference {
  readonly id: string;
}

/** What `defineAgent` takes. */
export interface AgentDefinition {
  name: string;
  /** One line on what the agent is for, for screens. */
  purpose?: string;
  /** The system prompt. */
  prompt: string;
  memory: AgentMemory;
  /** Who the agent acts as, where that matters. */
  principal?: { email: string };
  /** The workflow the agent runs in; having one is what offers the agent the ask tool. */
  loop?: () => LoopWorkflow;
  /** Tools of the agent's own (with `execute`). */
  tools?: ToolSet;
  /** A model for this agent; otherwise the runtime's `resolveModel` decides. */
  model?: LanguageModel;
}

/** A declared agent. `ask` and `answer` run inside a workflow's state code. */
export interface Agent extends Readonly<AgentDefinition> {
  /** Gives the agent these turns; it replies, or asks a person and parks. */
  ask(task: TaskReference, turns: readonly ModelMessage[]): Promise<AgentReply>;
  /**
   * Writes a person's answer as the result of the agent's pending question (the only one, or the
   * one named) and, once no question is pending, lets the agent carry on.
   */
  answer(task: TaskReference, text: string, options?: { questionId?: string }): Promise<AgentReply>;
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
  return agent;
}
