import type { ModelMessage, ToolApprovalResponse } from "ai";

import type { NothingReason } from "../types.js";

/** A tool call as the conversation holds it (an assistant message's `tool-call` part). */
export interface ConversationToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** A `tool-approval-request` still waiting for its `tool-approval-response`, with the call it is about. */
export interface PendingApprovalRequest {
  approvalId: string;
  toolCall: ConversationToolCall;
}

/** Every tool call in the conversation, by its id (an `Object.create(null)` map: the ids come from the model). */
export function toolCallsById(messages: readonly ModelMessage[]): Record<string, ConversationToolCall> {
  const calls: Record<string, ConversationToolCall> = Object.create(null);
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-call") calls[part.toolCallId] = { toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
    }
  }
  return calls;
}

/**
 * The approval requests nobody has answered in the conversation: no `tool-approval-response` names
 * them and their call has no result yet. In the order the model made them.
 */
export function pendingApprovalRequests(messages: readonly ModelMessage[]): PendingApprovalRequest[] {
  const calls = toolCallsById(messages);
  const answered = new Set<string>();
  const resulted = new Set<string>();
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-approval-response") answered.add(part.approvalId);
      else if (part.type === "tool-result") resulted.add(part.toolCallId);
    }
  }
  const pending: PendingApprovalRequest[] = [];
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type !== "tool-approval-request" || answered.has(part.approvalId) || resulted.has(part.toolCallId)) continue;
      const toolCall = calls[part.toolCallId];
      // A request whose call is gone is the AI SDK's to refuse (ToolCallNotFoundForApprovalError), not ours to ask about.
      if (toolCall) pending.push({ approvalId: part.approvalId, toolCall });
    }
  }
  return pending;
}

/**
 * The conversation with `responses` added where the AI SDK reads them: the last message when it is a
 * tool message (the results of the same step), else a new tool message. A new array; the messages
 * given are not changed.
 */
export function withApprovalResponses(messages: readonly ModelMessage[], responses: readonly ToolApprovalResponse[]): ModelMessage[] {
  const last = messages.at(-1);
  if (last?.role === "tool") return [...messages.slice(0, -1), { ...last, content: [...last.content, ...responses] }];
  return [...messages, { role: "tool", content: [...responses] }];
}

/** Who an ask went to, in words: `sam@example.com`, or `sam@example.com or kim@example.com`. */
export function recipientsText(to: string | readonly string[] | { group: string }): string {
  if (typeof to === "string") return to;
  if ("group" in to) return `the group ${to.group}`;
  return to.length === 1 ? (to[0] ?? "") : `${to.slice(0, -1).join(", ")} or ${to.at(-1) ?? ""}`;
}

/**
 * Why nobody answered, in words a model can act on. `who` names the person or people asked; `note`
 * is what a person who declined wrote.
 */
export function nothingText(reason: NothingReason, who: string, note?: string | null): string {
  switch (reason) {
    case "declined":
      return note ? `${who} declined to answer, writing: "${note}".` : `${who} declined to answer, without saying why.`;
    case "away":
      return `${who} is away and cannot answer now.`;
    case "expired":
      return `Nobody answered before the deadline; the question expired.`;
    case "cancelled":
      return `The question was withdrawn before anyone answered.`;
    case "refused":
      return `The answers given kept breaking the question's rules, so the question closed without an answer.`;
    case "non-interactive":
      return `${who} cannot answer questions from where they are working just now.`;
    case "unavailable":
      return `Nobody could be reached to answer.`;
  }
}
