import { Annotation, Command, END, interrupt, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { pendingInterrupts } from "@parleyhq/client/langgraph";
import { describe, expect, it } from "vitest";

// The real LangGraph, its in-memory checkpointer: which interrupts does a thread still wait on?
const State = Annotation.Root({ left: Annotation<unknown>(), right: Annotation<unknown>(), pair: Annotation<unknown>() });

function graphWith(nodes: Record<string, () => Promise<Partial<typeof State.State>>>) {
  let graph = new StateGraph(State) as unknown as StateGraph<typeof State.spec, typeof State.State, typeof State.Update, string>;
  for (const [name, node] of Object.entries(nodes)) graph = graph.addNode(name, node).addEdge(START, name).addEdge(name, END) as typeof graph;
  const checkpointer = new MemorySaver();
  return { graph: graph.compile({ checkpointer }), checkpointer };
}

const config = { configurable: { thread_id: "thread-1" } };

async function pendingOf(checkpointer: MemorySaver) {
  return pendingInterrupts((await checkpointer.getTuple(config))?.pendingWrites ?? []);
}

describe("a thread's pending interrupts", () => {
  it("are both parallel branches' until one is resumed, then only the other's", async () => {
    const { graph, checkpointer } = graphWith({
      leftNode: async () => ({ left: interrupt({ title: "Left?" }) }),
      rightNode: async () => ({ right: interrupt({ title: "Right?" }) }),
    });
    await graph.invoke({}, config);
    const both = await pendingOf(checkpointer);
    expect(both.map((pending) => pending.value)).toEqual([{ title: "Left?" }, { title: "Right?" }]);

    await graph.invoke(new Command({ resume: { [both[1]!.id]: "yes" } }), config);
    // LangGraph still lists the finished branch's interrupt in getState().tasks; it is not pending.
    expect((await graph.getState(config)).tasks.flatMap((task) => task.interrupts)).toHaveLength(2);
    expect(await pendingOf(checkpointer)).toEqual([both[0]]);
  });

  it("count a node that wrote nothing as finished", async () => {
    const { graph, checkpointer } = graphWith({
      quietNode: async () => {
        interrupt({ title: "Noted?" });
        return {};
      },
      rightNode: async () => ({ right: interrupt({ title: "Right?" }) }),
    });
    await graph.invoke({}, config);
    const [quiet, right] = await pendingOf(checkpointer);
    await graph.invoke(new Command({ resume: { [quiet!.id]: "ok" } }), config);
    expect(await pendingOf(checkpointer)).toEqual([right]);
  });

  it("are a node's latest question when it asks twice in a row, under a new id", async () => {
    const { graph, checkpointer } = graphWith({
      twiceNode: async () => ({ pair: [interrupt({ title: "First?" }), interrupt({ title: "Second?" })] }),
    });
    await graph.invoke({}, config);
    const [first] = await pendingOf(checkpointer);
    await graph.invoke(new Command({ resume: { [first!.id]: 1 } }), config);
    const [second, ...rest] = await pendingOf(checkpointer);
    expect(rest).toEqual([]);
    expect(second!.value).toEqual({ title: "Second?" });
    expect(second!.id).not.toBe(first!.id);
  });

  it("carry the JSON Schema a node gave interrupt() as its responseSchema", async () => {
    const schema = { type: "object" as const, properties: { go: { type: "boolean" as const } }, required: ["go"] };
    const { graph, checkpointer } = graphWith({ leftNode: async () => ({ left: interrupt({ title: "Go?" }, { responseSchema: schema }) }) });
    await graph.invoke({}, config);
    expect(await pendingOf(checkpointer)).toEqual([expect.objectContaining({ value: { title: "Go?" }, response_schema: schema })]);
  });

  it("are none once the graph has run to its end", async () => {
    const { graph, checkpointer } = graphWith({ leftNode: async () => ({ left: interrupt({ title: "Left?" }) }) });
    await graph.invoke({}, config);
    const [left] = await pendingOf(checkpointer);
    expect(await graph.invoke(new Command({ resume: { [left!.id]: "done" } }), config)).toEqual({ left: "done" });
    expect(await pendingOf(checkpointer)).toEqual([]);
  });

  it("include a subgraph's, found at its parent's task and resumed there by its id", async () => {
    const inner = new StateGraph(State)
      .addNode("innerNode", async () => ({ left: interrupt({ title: "Inner?" }) }))
      .addEdge(START, "innerNode")
      .addEdge("innerNode", END)
      .compile();
    const checkpointer = new MemorySaver();
    const graph = new StateGraph(State).addNode("outerNode", inner).addEdge(START, "outerNode").addEdge("outerNode", END).compile({ checkpointer });
    await graph.invoke({}, config);
    const [pending, ...rest] = await pendingOf(checkpointer);
    expect(rest).toEqual([]);
    expect(pending!.value).toEqual({ title: "Inner?" });
    expect(await graph.invoke(new Command({ resume: { [pending!.id]: "deep" } }), config)).toEqual({ left: "deep" });
    expect(await pendingOf(checkpointer)).toEqual([]);
  });
});
