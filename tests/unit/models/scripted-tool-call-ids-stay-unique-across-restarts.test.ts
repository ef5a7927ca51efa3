import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createScriptedModel } from "@/lib/models/scripted-model";

const ask = { toolCalls: [{ toolName: "ask", input: { question: "Why?" } }] };

async function firstToolCallId(prompt: LanguageModelV3Prompt): Promise<string | undefined> {
  // A new model each time, as after a server restart.
  const model = createScriptedModel({ respond: () => ask });
  const result = await model.doGenerate({ prompt });
  const call = result.content.find((part) => part.type === "tool-call");
  return call?.type === "tool-call" ? call.toolCallId : undefined;
}

describe("the scripted model's tool call ids", () => {
  it("differ for a later step of the same conversation, even from a fresh model", async () => {
    const opening: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Review this claim." }] }];
    const first = await firstToolCallId(opening);
    const later = await firstToolCallId([
      ...opening,
      { role: "assistant", content: [{ type: "tool-call", toolCallId: first!, toolName: "ask", input: { question: "Why?" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: first!, toolName: "ask", output: { type: "text", value: "Dinner" } }] },
    ]);
    expect(first).toBeDefined();
    expect(later).toBeDefined();
    expect(later).not.toBe(first);
  });

  it("are the same for the same step, so a replay is deterministic", async () => {
    const opening: LanguageModelV3Prompt = [{ role: "user", content: [{ type: "text", text: "Review this claim." }] }];
    expect(await firstToolCallId(opening)).toBe(await firstToolCallId(opening));
  });
});
