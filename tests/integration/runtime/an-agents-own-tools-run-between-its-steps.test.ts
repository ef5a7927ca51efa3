import { tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createScriptedModel } from "@/lib/models/scripted-model";
import { defineAgent, turn } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { newTask, storedMessages, toolResults } from "./agents";
import { createRuntimeFixture, FileTask, type RuntimeFixture } from "./fixture-workflow";

const POLICY = "Client dinners are paid up to 60 EUR a head.";

describe.each(DATABASE_KINDS)("an agent's own tools (%s)", (kind) => {
  let fixture: RuntimeFixture;
  afterEach(async () => fixture?.database.close());

  it("run between its steps, once each, and the turn then asks and parks with the whole road stored", async () => {
    fixture = await createRuntimeFixture(kind);
    let lookups = 0;
    const lookUpPolicy = tool({
      description: "Look up the expense policy on a topic.",
      inputSchema: z.object({ topic: z.string() }),
      execute: async ({ topic }) => {
        lookups += 1;
        return `${topic}: ${POLICY}`;
      },
    });
    // Looks the policy up first; with the policy in hand, asks who was at the dinner.
    const model = createScriptedModel({
      respond: (prompt) =>
        toolResults(prompt).length === 0
          ? { toolCalls: [{ toolName: "lookUpPolicy", input: { topic: "dinners" } }] }
          : { toolCalls: [{ toolName: "ask", input: { question: "How many people were at the dinner?" } }] },
    });
    const agent = defineAgent({ name: "Clerk", prompt: "You file things.", memory: "persistent", loop: () => FileTask, tools: { lookUpPolicy }, model });
    const task = newTask();

    const reply = await fixture.runtime.ask(agent, task, [turn.user("File the Lisbon dinner, 240 EUR.")]);

    expect(reply).toMatchObject({ parked: true, question: { text: "How many people were at the dinner?" } });
    expect(lookups).toBe(1);
    // One call per step: the reply that called the tool was not asked for twice.
    expect(model.calls).toHaveLength(2);
    expect(toolResults(model.calls[1]!.prompt)).toEqual([
      expect.objectContaining({ toolName: "lookUpPolicy", output: { type: "text", value: `dinners: ${POLICY}` } }),
    ]);
    const stored = await storedMessages(fixture.database.db, "Clerk", task.id);
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(stored[3]?.message).toMatchObject({ content: [{ type: "tool-call", toolName: "ask", input: { question: "How many people were at the dinner?" } }] });
  });
});
