import type { LanguageModelV3Content, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";

/** One model turn: what the model answers, given the prompt it received. */
export type ModelTurn = (prompt: LanguageModelV3Prompt) => LanguageModelV3Content[];

/**
 * The AI SDK's own mock model playing a script: each call to the model takes the next turn. `prompts`
 * holds what the model received on each call, so a test can assert what it read.
 */
export function scriptedModel(turns: ModelTurn[]) {
  let next = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const turn = turns[next++];
      if (!turn) throw new Error(`the model was called ${next} times; the script has ${turns.length} turns`);
      const content = turn(prompt);
      return {
        content,
        finishReason: { unified: content.some((part) => part.type === "tool-call") ? "tool-calls" : "stop", raw: undefined },
        usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
        warnings: [],
      };
    },
  });
  return { model, prompts: () => model.doGenerateCalls.map((call) => call.prompt), calls: () => next };
}

/** The model calls a tool. */
export const callTool = (toolCallId: string, toolName: string, input: unknown): LanguageModelV3Content => ({ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) });

/** The model says something. */
export const say = (text: string): LanguageModelV3Content => ({ type: "text", text });

/** The output of the tool result the model received for a call, in its latest prompt. */
export function toolResultIn(prompt: LanguageModelV3Prompt | undefined, toolCallId: string) {
  for (const message of prompt ?? []) {
    if (message.role !== "tool") continue;
    for (const part of message.content) if (part.type === "tool-result" && part.toolCallId === toolCallId) return part.output;
  }
  return undefined;
}
