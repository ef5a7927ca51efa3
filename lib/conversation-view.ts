import type { ModelMessage } from "ai";
import { ASK_TOOL_NAME } from "@/lib/runtime/ask-tool";

/** One readable line of an agent's conversation, for people rather than for the model. */
export type ConversationLine =
  | { kind: "instruction"; text: string }
  | { kind: "agent"; text: string }
  | { kind: "question"; text: string; options: string[]; toolCallId: string }
  | { kind: "answer"; text: string; toolCallId: string }
  | { kind: "tool"; name: string };

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: string }) => (part.type === "text" && typeof part.text === "string" ? part.text : ""))
    .join("");
}

function resultText(output: unknown): string {
  if (output && typeof output === "object" && "value" in output) {
    const value = (output as { value: unknown }).value;
    return typeof value === "string" ? value : JSON.stringify(value);
  }
  return typeof output === "string" ? output : JSON.stringify(output);
}

/**
 * The conversation as people read it: what the agent was told, what it said, what it asked (with
 * its options) and what it was answered. System prompts are left out; nothing is interpreted as HTML.
 */
export function readableConversation(messages: readonly ModelMessage[]): ConversationLine[] {
  const lines: ConversationLine[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = textOf(message.content).trim();
      if (text) lines.push({ kind: "instruction", text });
    } else if (message.role === "assistant") {
      const parts = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
      for (const part of parts) {
        if (part.type === "text" && part.text.trim()) lines.push({ kind: "agent", text: part.text.trim() });
        if (part.type === "tool-call") {
          if (part.toolName === ASK_TOOL_NAME) {
            const input = (part.input ?? {}) as { question?: unknown; options?: unknown };
            lines.push({
              kind: "question",
              text: typeof input.question === "string" ? input.question : "",
              options: Array.isArray(input.options) ? input.options.filter((option): option is string => typeof option === "string") : [],
              toolCallId: part.toolCallId,
            });
          } else {
            lines.push({ kind: "tool", name: part.toolName });
          }
        }
      }
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type === "tool-result" && part.toolName === ASK_TOOL_NAME) {
          lines.push({ kind: "answer", text: resultText(part.output), toolCallId: part.toolCallId });
        }
      }
    }
  }
  return lines;
}
