import { AsyncLocalStorage } from "node:async_hooks";
import type { ModelMessage } from "ai";
import type { Agent, AgentReply, AskPersonOptions, PersonAsked, RunHandle, TaskReference } from "./types";

/** What an agent call needs from the runtime that is running the current job. */
export interface AgentEngine {
  ask(agent: Agent, task: TaskReference, turns: readonly ModelMessage[]): Promise<AgentReply>;
  answer(agent: Agent, task: TaskReference, text: string, options?: { questionId?: string }): Promise<AgentReply>;
  askPerson(run: RunHandle<string, unknown>, event: string, options: AskPersonOptions): Promise<PersonAsked>;
}

/** The job a piece of state code is running in. */
export interface RunScope {
  readonly engine: AgentEngine;
}

const storage = new AsyncLocalStorage<RunScope>();

/** Runs `body` with `scope` as the current run scope (what `agent.ask` talks to). */
export function withRunScope<T>(scope: RunScope, body: () => T): T {
  return storage.run(scope, body);
}

/** The current run scope; `agent.ask`/`agent.answer` outside state code is a programming error. */
export function currentRunScope(call: "ask" | "answer" | "person.ask"): RunScope {
  const scope = storage.getStore();
  if (!scope) {
    if (call === "person.ask") throw new Error("person.ask() runs inside a workflow's state code.");
    throw new Error(`agent.${call}() runs inside a workflow's state code (or use runtime.${call}(agent, …)).`);
  }
  return scope;
}
