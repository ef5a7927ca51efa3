/**
 * LangGraph JS as a benchmark contender, set up the way its documentation shows human-in-the-loop:
 * a messages graph whose model node calls a chat model and whose `ask` node calls `interrupt()`
 * with the model's question; the person's answer resumes it with `new Command({ resume })` and
 * becomes the ask call's ToolMessage. Checkpoints go to PostgreSQL through PostgresSaver (default
 * durability, "async"). The chat model is a zero-latency fake of its own, scripted like Parley's.
 */
import { randomUUID } from "node:crypto";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { Command, END, interrupt, isInterrupted, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import type { ClerkBehaviour } from "./parley";
import { BENCH_SCRIPT } from "./script";

/** A chat model that answers at once: asks until it sees a tool result; then finishes, or asks again. */
class ScriptedChatModel extends BaseChatModel {
  constructor(private readonly behaviour: ClerkBehaviour) {
    super({});
  }

  _llmType(): string {
    return "bench-scripted";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const answered = messages.at(-1)?.getType() === "tool";
    const message =
      answered && this.behaviour === "finish"
        ? new AIMessage(BENCH_SCRIPT.done)
        : new AIMessage({
            content: "",
            tool_calls: [{ id: `call-${messages.length}`, name: "ask", args: { question: BENCH_SCRIPT.question }, type: "tool_call" }],
          });
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

function buildGraph(checkpointer: PostgresSaver, behaviour: ClerkBehaviour) {
  const model = new ScriptedChatModel(behaviour);
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state) => ({ messages: [await model.invoke([new SystemMessage(BENCH_SCRIPT.system), ...state.messages])] }))
    .addNode("ask", (state) => {
      const call = (state.messages.at(-1) as AIMessage).tool_calls![0]!;
      const answer = interrupt<{ question: unknown }, string>({ question: call.args.question });
      return { messages: [new ToolMessage({ tool_call_id: call.id!, name: "ask", content: answer })] };
    })
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? "ask" : END), ["ask", END])
    .addEdge("ask", "agent")
    .compile({ checkpointer });
}

/** One LangGraph graph over a PostgresSaver on a database of its own. */
export interface LangGraphContender {
  /** A new thread: the first run, which stops at the interrupt; returns the thread id. */
  startThread(): Promise<string>;
  /** Resumes a thread with the person's answer; returns whether it interrupted again. */
  resume(threadId: string): Promise<boolean>;
  /** Park → answer → resume on a new thread: the run that asks, the answer, the run that finishes. */
  cycle(): Promise<void>;
  /** Throws unless every thread started by {@link cycle} ended with the final answer. */
  verifyFinished(): Promise<number>;
  /** How many messages a thread holds. */
  messageCount(threadId: string): Promise<number>;
  close(): Promise<void>;
}

/** Opens the contender on the database at `url` (its tables are created by `setup()` when asked). */
export async function openLangGraph(url: string, behaviour: ClerkBehaviour, options: { setup?: boolean } = {}): Promise<LangGraphContender> {
  const checkpointer = PostgresSaver.fromConnString(url);
  if (options.setup ?? true) await checkpointer.setup();
  const graph = buildGraph(checkpointer, behaviour);
  const finished: string[] = [];
  const configOf = (threadId: string) => ({ configurable: { thread_id: threadId } });

  const contender: LangGraphContender = {
    async startThread() {
      const threadId = randomUUID();
      const result = await graph.invoke({ messages: [new HumanMessage(BENCH_SCRIPT.brief)] }, configOf(threadId));
      if (!isInterrupted(result)) throw new Error(`thread ${threadId} did not interrupt to ask`);
      return threadId;
    },
    async resume(threadId) {
      const result = await graph.invoke(new Command({ resume: BENCH_SCRIPT.answer }), configOf(threadId));
      const interrupted = isInterrupted(result);
      if (!interrupted && behaviour === "ask-again") throw new Error(`thread ${threadId} finished instead of asking again`);
      return interrupted;
    },
    async cycle() {
      const threadId = await contender.startThread();
      if (await contender.resume(threadId)) throw new Error(`thread ${threadId} asked again instead of finishing`);
      finished.push(threadId);
    },
    async verifyFinished() {
      for (const threadId of finished) {
        const state = await graph.getState(configOf(threadId));
        const last = (state.values.messages as BaseMessage[] | undefined)?.at(-1);
        if (state.next.length > 0 || last?.getType() !== "ai" || last.content !== BENCH_SCRIPT.done) {
          throw new Error(`LangGraph thread ${threadId} did not end with the final answer (next: ${state.next.join(", ")})`);
        }
      }
      return finished.length;
    },
    async messageCount(threadId) {
      const state = await graph.getState(configOf(threadId));
      return (state.values.messages as BaseMessage[] | undefined)?.length ?? 0;
    },
    close: () => checkpointer.end(),
  };
  return contender;
}
