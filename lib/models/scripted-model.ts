import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { APICallError } from "@ai-sdk/provider";

/** The provider name every scripted model reports, so screens can label it as such. */
export const SCRIPTED_PROVIDER = "scripted";

/** One tool call the scripted model makes. */
export interface ScriptedToolCall {
  toolName: string;
  input: unknown;
  /**
   * Defaults to a deterministic id from the call's place in the conversation (`call-<prompt length>-<index>`):
   * unique within a conversation even across restarts, as a real provider's ids are.
   */
  toolCallId?: string;
}

/**
 * What the scripted model answers one call with: text, tool calls (optionally with text), a
 * provider error, or any of those after a delay (which honours the caller's abort signal).
 */
export type ScriptedReply =
  | { text: string; toolCalls?: undefined }
  | { text?: string; toolCalls: ScriptedToolCall[] }
  | { error: string; status?: number }
  | { delayMs: number; then: ScriptedReply };

/** Decides the reply to one call from the prompt the model was given. */
export type ScriptedResponder = (
  prompt: LanguageModelV3Prompt,
  options: LanguageModelV3CallOptions,
) => ScriptedReply | Promise<ScriptedReply>;

/** A scripted model: an AI SDK language model plus the record of every call made to it. */
export interface ScriptedModel extends LanguageModelV3 {
  /** The latest calls' options, in order: the prompt replayed and the tools offered. */
  readonly calls: LanguageModelV3CallOptions[];
}

/**
 * A deterministic language model for demos and tests. It implements the AI SDK's model interface
 * so everything above it runs exactly as with a real provider; its provider is always
 * {@link SCRIPTED_PROVIDER}.
 */
export function createScriptedModel(options: {
  name?: string;
  respond: ScriptedResponder;
  /** How many of the latest calls `calls` keeps (default 1000): a long-lived demo server must not keep every prompt. */
  maxRecordedCalls?: number;
}): ScriptedModel {
  const calls: LanguageModelV3CallOptions[] = [];
  const maxRecordedCalls = options.maxRecordedCalls ?? 1_000;

  async function generate(callOptions: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    calls.push(callOptions);
    if (calls.length > maxRecordedCalls) calls.splice(0, calls.length - maxRecordedCalls);
    let reply = await options.respond(callOptions.prompt, callOptions);
    while ("delayMs" in reply) {
      await sleep(reply.delayMs, callOptions.abortSignal);
      reply = reply.then;
    }
    if ("error" in reply) {
      throw new APICallError({
        message: reply.error,
        url: "scripted://model",
        requestBodyValues: {},
        statusCode: reply.status ?? 500,
        isRetryable: false,
      });
    }
    const content: LanguageModelV3Content[] = [];
    if (reply.text) content.push({ type: "text", text: reply.text });
    for (const [index, call] of (reply.toolCalls ?? []).entries()) {
      content.push({
        type: "tool-call",
        toolCallId: call.toolCallId ?? `call-${callOptions.prompt.length}-${index}`,
        toolName: call.toolName,
        input: JSON.stringify(call.input ?? {}),
      });
    }
    const hasToolCalls = (reply.toolCalls?.length ?? 0) > 0;
    return {
      content,
      finishReason: { unified: hasToolCalls ? "tool-calls" : "stop", raw: undefined },
      usage: {
        inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 0, text: 0, reasoning: 0 },
      },
      warnings: [],
    };
  }

  return {
    specificationVersion: "v3",
    provider: SCRIPTED_PROVIDER,
    modelId: options.name ?? "scripted",
    supportedUrls: {},
    calls,
    doGenerate: generate,
    async doStream(callOptions) {
      const result = await generate(callOptions);
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const [index, part] of result.content.entries()) {
        if (part.type === "text") {
          const id = `text-${index}`;
          parts.push({ type: "text-start", id }, { type: "text-delta", id, delta: part.text }, { type: "text-end", id });
        } else if (part.type === "tool-call") {
          parts.push(part);
        }
      }
      parts.push({ type: "finish", usage: result.usage, finishReason: result.finishReason });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
