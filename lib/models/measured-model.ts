import type { LanguageModelV3 } from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";

/** What a measured model reports each call to: its provider, whether it answered, how long it took, and why it failed. */
export type ModelCallObserver = (provider: string, outcome: "answered" | "failed", seconds: number, error?: unknown) => void;

/**
 * `model`, reporting each generate call (one step of a turn: the runtime calls models through
 * `generateText`) to `observe` — through the AI SDK's own middleware, so the provider sees the same
 * calls and the caller the same results and errors.
 */
export function measuredModel(model: LanguageModelV3, observe: ModelCallObserver): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate }) => {
        const started = performance.now();
        try {
          const result = await doGenerate();
          observe(model.provider, "answered", (performance.now() - started) / 1000);
          return result;
        } catch (error) {
          observe(model.provider, "failed", (performance.now() - started) / 1000, error);
          throw error;
        }
      },
    },
  });
}
