// A little over ~250 lines: building the provider's prompt and reading its reply are one road, kept together.
import type { LanguageModelV3, LanguageModelV3Content, LanguageModelV3FunctionTool, LanguageModelV3GenerateResult, LanguageModelV3Message, LanguageModelV3ToolChoice } from "@ai-sdk/provider";
import { asSchema, safeParseJSON } from "@ai-sdk/provider-utils";
import { type AssistantContent, generateText, type LanguageModel, type ModelMessage, modelMessageSchema, stepCountIs, type ToolSet } from "ai";
import { convertToLanguageModelPrompt, prepareToolsAndToolChoice } from "ai/internal";

/**
 * One model call of an agent's turn, through the AI SDK's provider interface.
 *
 * `generateText` converts and checks the whole conversation on every call and builds a result of
 * every step; a turn that asks or answers needs none of that. Here the provider's `doGenerate` is
 * called with the conversation in its own prompt format — a conversation's prompt built once and
 * extended by the messages appended since (messages are append-only), the tools prepared once per
 * tool set — and a reply made
 * only of text and calls of tools without `execute` (the ask) is read straight off the provider's
 * content. Anything else the SDK does for a turn (running the agent's own tools and calling again,
 * a tool call it cannot read, files, provider-executed tools) is left to `generateText` itself, which
 * is handed the reply already received, so the model is never called twice for one step.
 */

/** The part of a turn's outcome the runtime keeps. */
export interface ModelTurn {
  /** The final step's text. */
  text: string;
  /** Every tool call of every step, its input as the tool's schema read it. */
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  /** The messages the call added to the conversation (the assistant's, and tool results), as the SDK writes them. */
  responseMessages: ModelMessage[];
}

export interface ModelCall {
  model: LanguageModel;
  system: string;
  /** The conversation so far: checked when it was first given, so not checked again. */
  history: readonly ModelMessage[];
  /** What this turn adds (workflow code's turns), checked here. */
  fresh: readonly ModelMessage[];
  tools: ToolSet;
  /** Steps at most, counting those that run the agent's own tools. */
  maxSteps: number;
  abortSignal: AbortSignal;
}

/**
 * A conversation's history in the provider's format, as far as it was built: `length` messages,
 * the last of them `last`. Kept by the conversation's first message, which no other conversation
 * holds (a runtime holds each conversation's messages as it read them); a history that does not go on
 * from `last` at that place is built again.
 */
interface PromptSoFar {
  length: number;
  last: ModelMessage;
  prompt: LanguageModelV3Message[];
}
const prompts = new WeakMap<ModelMessage, PromptSoFar>();
/** Each tool set's provider form. */
const preparedTools = new WeakMap<ToolSet, Promise<{ tools: LanguageModelV3FunctionTool[] | undefined; toolChoice: LanguageModelV3ToolChoice | undefined }>>();

export async function callModel(call: ModelCall): Promise<ModelTurn> {
  checkFresh(call.fresh);
  const { model } = call;
  if (typeof model === "string" || model.specificationVersion !== "v3") return viaGenerateText(call, undefined);
  const prompt = await providerPrompt(model, call.system, call.history, call.fresh, call.abortSignal);
  const { tools, toolChoice } = await toolsFor(call.tools);
  const result = await model.doGenerate({ prompt, ...(tools ? { tools } : {}), ...(toolChoice ? { toolChoice } : {}), abortSignal: call.abortSignal });
  return (await readDirectly(result.content, call.tools)) ?? viaGenerateText(call, { model, result });
}

/** A turn's own messages are checked as the SDK checks them; plain text ones need no schema to tell. */
function checkFresh(messages: readonly ModelMessage[]): void {
  for (const message of messages) {
    if ((message.role === "user" || message.role === "system") && typeof message.content === "string") continue;
    const checked = modelMessageSchema.safeParse(message);
    if (!checked.success) throw new TypeError(`A message given to the agent is not a model message: ${checked.error.message}`);
  }
}

function toolsFor(set: ToolSet) {
  let prepared = preparedTools.get(set);
  if (!prepared) {
    prepared = prepareToolsAndToolChoice({ tools: set, toolChoice: undefined, activeTools: undefined }) as Promise<{
      tools: LanguageModelV3FunctionTool[] | undefined;
      toolChoice: LanguageModelV3ToolChoice | undefined;
    }>;
    preparedTools.set(set, prepared);
  }
  return prepared;
}

/**
 * The prompt in the provider's format. Messages of text, reasoning, tool calls and tool results are
 * converted here — the history once, as it grows (a turn converts only what was appended since the
 * last), the turn's fresh messages each time; a conversation with anything else (files, images) goes
 * through the SDK's own conversion, which downloads what the provider cannot fetch itself.
 */
async function providerPrompt(model: LanguageModelV3, system: string, history: readonly ModelMessage[], fresh: readonly ModelMessage[], abortSignal: AbortSignal) {
  const sdkConversion = async () =>
    convertToLanguageModelPrompt({ prompt: { system, messages: [...history, ...fresh] }, supportedUrls: await model.supportedUrls, download: undefined, abortSignal });
  const before = historyPrompt(history);
  if (!before) return sdkConversion();
  const prompt: LanguageModelV3Message[] = [{ role: "system", content: system }, ...before];
  for (const message of fresh) {
    const known = convertPlain(message);
    if (!known) return sdkConversion();
    append(prompt, known);
  }
  return prompt;
}

/** The history in the provider's format, built on from what earlier turns built; undefined when a message is not plain. */
function historyPrompt(history: readonly ModelMessage[]): readonly LanguageModelV3Message[] | undefined {
  const [first] = history;
  if (first === undefined) return [];
  let built = prompts.get(first);
  if (!built || built.length > history.length || history[built.length - 1] !== built.last) built = { length: 0, last: first, prompt: [] };
  for (let index = built.length; index < history.length; index++) {
    const known = convertPlain(history[index]!);
    if (!known) {
      // Part-built: forgotten, so that nothing is added twice.
      prompts.delete(first);
      return undefined;
    }
    append(built.prompt, known);
  }
  built.length = history.length;
  built.last = history[history.length - 1]!;
  prompts.set(first, built);
  return built.prompt;
}

/** Adds a message to a prompt: consecutive tool results are one message to a provider, as the SDK sends them. */
function append(prompt: LanguageModelV3Message[], message: LanguageModelV3Message): void {
  const last = prompt.at(-1);
  // A new message replaces the last rather than changing it: a prompt already handed to a provider stays as it was.
  if (message.role === "tool" && last?.role === "tool") prompt[prompt.length - 1] = { ...last, content: [...last.content, ...message.content] };
  else prompt.push(message);
}

type Options = { providerOptions?: LanguageModelV3Message["providerOptions"] };
const withOptions = (part: Options) => (part.providerOptions ? { providerOptions: part.providerOptions } : {});

/** A message of text, reasoning, tool calls and tool results in the provider's format, or undefined for anything else. */
function convertPlain(message: ModelMessage): LanguageModelV3Message | undefined {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content, ...withOptions(message) };
    case "user": {
      if (typeof message.content === "string") return { role: "user", content: [{ type: "text", text: message.content }], ...withOptions(message) };
      const content: Extract<LanguageModelV3Message, { role: "user" }>["content"] = [];
      for (const part of message.content) {
        if (part.type !== "text") return undefined;
        if (part.text !== "") content.push({ type: "text", text: part.text, ...withOptions(part) });
      }
      return { role: "user", content, ...withOptions(message) };
    }
    case "assistant": {
      if (typeof message.content === "string") return { role: "assistant", content: [{ type: "text", text: message.content }], ...withOptions(message) };
      const content: Extract<LanguageModelV3Message, { role: "assistant" }>["content"] = [];
      for (const part of message.content) {
        if (part.type === "text") {
          if (part.text !== "" || part.providerOptions) content.push({ type: "text", text: part.text, ...withOptions(part) });
        } else if (part.type === "reasoning") {
          content.push({ type: "reasoning", text: part.text, ...withOptions(part) });
        } else if (part.type === "tool-call") {
          content.push({
            type: "tool-call",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            ...(part.providerExecuted !== undefined ? { providerExecuted: part.providerExecuted } : {}),
            ...withOptions(part),
          });
        } else return undefined;
      }
      return { role: "assistant", content, ...withOptions(message) };
    }
    case "tool": {
      const content: Extract<LanguageModelV3Message, { role: "tool" }>["content"] = [];
      for (const part of message.content) {
        if (part.type !== "tool-result") return undefined;
        const { output } = part;
        // Results whose output holds files or media are the SDK's to convert.
        if (output.type === "content") return undefined;
        content.push({ type: "tool-result", toolCallId: part.toolCallId, toolName: part.toolName, output, ...withOptions(part) });
      }
      return { role: "tool", content, ...withOptions(message) };
    }
  }
}

/**
 * The turn read straight off the provider's reply, when it is only text, reasoning and calls of
 * tools without `execute` whose input the tool's schema takes; undefined when it is anything else.
 * The assistant message is built as the SDK builds it (`toResponseMessages`).
 */
async function readDirectly(content: readonly LanguageModelV3Content[], tools: ToolSet): Promise<ModelTurn | undefined> {
  const parts: Exclude<AssistantContent, string> = [];
  const toolCalls: ModelTurn["toolCalls"] = [];
  let text = "";
  for (const part of content) {
    if (part.type === "text") {
      text += part.text;
      if (part.text.length > 0) parts.push({ type: "text", text: part.text, ...metadataAsOptions(part) });
    } else if (part.type === "reasoning") {
      parts.push({ type: "reasoning", text: part.text, ...metadataAsOptions(part) });
    } else if (part.type === "source") {
      continue;
    } else if (part.type === "tool-call") {
      const tool = tools[part.toolName];
      if (!tool || tool.execute || part.providerExecuted || (tool.type !== undefined && tool.type !== "function")) return undefined;
      const schema = asSchema(tool.inputSchema);
      const parsed = part.input.trim() === "" ? await schema.validate?.({}) : await safeParseJSON({ text: part.input, schema });
      if (!parsed || !parsed.success) return undefined;
      toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.value });
      parts.push({ type: "tool-call", toolCallId: part.toolCallId, toolName: part.toolName, input: parsed.value, ...metadataAsOptions(part) });
    } else {
      return undefined;
    }
  }
  return { text, toolCalls, responseMessages: parts.length > 0 ? [{ role: "assistant", content: parts }] : [] };
}

function metadataAsOptions(part: { providerMetadata?: LanguageModelV3GenerateResult["providerMetadata"] }) {
  return part.providerMetadata ? { providerOptions: part.providerMetadata } : {};
}

/**
 * The SDK's own road: `generateText` over the whole conversation, the agent's tools run between
 * steps. `received` is the first step's reply, already in hand: the model given to the SDK answers
 * its first call with it and passes every later call to the provider.
 */
async function viaGenerateText(call: ModelCall, received: { model: LanguageModelV3; result: LanguageModelV3GenerateResult } | undefined): Promise<ModelTurn> {
  let model: LanguageModel = call.model;
  if (received) {
    let first: LanguageModelV3GenerateResult | undefined = received.result;
    const provider = received.model;
    model = {
      specificationVersion: "v3",
      provider: provider.provider,
      modelId: provider.modelId,
      supportedUrls: provider.supportedUrls,
      doGenerate(options) {
        const reply = first;
        first = undefined;
        return reply ? Promise.resolve(reply) : provider.doGenerate(options);
      },
      doStream: (options) => provider.doStream(options),
    } satisfies LanguageModelV3;
  }
  // Only the turn's own messages are checked again; the history is put before them for the model.
  const fresh = call.fresh.length > 0 ? [...call.fresh] : call.history.slice(-1);
  const replayed = call.fresh.length > 0 ? call.history : call.history.slice(0, -1);
  const result = await generateText({
    model,
    system: call.system,
    messages: fresh,
    ...(replayed.length > 0 ? { prepareStep: ({ messages }: { messages: ModelMessage[] }) => ({ messages: [...replayed, ...messages] }) } : {}),
    tools: call.tools,
    stopWhen: stepCountIs(call.maxSteps),
    // Retrying is the job queue's business, where it is recorded.
    maxRetries: 0,
    abortSignal: call.abortSignal,
  });
  return {
    text: result.text,
    toolCalls: result.steps.flatMap((step) => step.toolCalls.map((each) => ({ toolCallId: each.toolCallId, toolName: each.toolName, input: each.input }))),
    responseMessages: result.response.messages,
  };
}
