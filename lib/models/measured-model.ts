import type { LanguageModelV3 } from "@ai-sdk/provider";
import { SpanKind } from "@opentelemetry/api";
import { wrapLanguageModel } from "ai";
import { inSpan } from "@/lib/runtime/tracing";

/** What a measured model reports each call to: its provider, whether it answered, how long it took, and why it failed. */
export type ModelCallObserver = (provider: string, outcome: "answered" | "failed", seconds: number, error?: unknown) => void;

/**
 * `model`, reporting each generate call (one step of a turn: the runtime calls models through
 * `generateText`) to `observe` — through the AI SDK's own middleware, so the provider sees the same
 * calls and the caller the same results and errors. Each call is a span too (`chat <model>`, with
 * OpenTelemetry's GenAI attributes: provider, model, tokens; never the prompt or the reply), inside
 * the turn's when tracing is on.
 */
export function measuredModel(model: LanguageModelV3, observe: ModelCallObserver): LanguageModelV3 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: ({ doGenerate }) =>
        inSpan(
          `chat ${model.modelId}`,
          { "gen_ai.operation.name": "chat", "gen_ai.provider.name": model.provider, "gen_ai.request.model": model.modelId },
          async (span) => {
            const started = performance.now();
            try {
              const result = await doGenerate();
              observe(model.provider, "answered", (performance.now() - started) / 1000);
              if (result.usage.inputTokens.total !== undefined) span.setAttribute("gen_ai.usage.input_tokens", result.usage.inputTokens.total);
              if (result.usage.outputTokens.total !== undefined) span.setAttribute("gen_ai.usage.output_tokens", result.usage.outputTokens.total);
              return result;
            } catch (error) {
              observe(model.provider, "failed", (performance.now() - started) / 1000, error);
              throw error;
            }
          },
          { kind: SpanKind.CLIENT },
        ),
    },
  });
}
