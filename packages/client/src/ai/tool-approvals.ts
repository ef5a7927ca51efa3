import { asSchema, type ModelMessage, type ToolApprovalResponse, type ToolSet } from "ai";

import type { ParleyClient } from "../parley-client.js";
import type { Ask, JsonSchemaObject, Within } from "../types.js";
import { type ConversationToolCall, nothingText, type PendingApprovalRequest, pendingApprovalRequests, recipientsText, toolCallsById, withApprovalResponses } from "./conversation.js";

/** Options of {@link askForApprovals} and {@link resolveApprovals}: give both the same. */
export interface ApprovalAskOptions {
  /** The Parley client to ask with. */
  client: ParleyClient;
  /** Who decides: one person's email, or several (any one of them). */
  to: string | readonly string[];
  /**
   * The tools given to `generateText`: each ask then shows the tool's description, and when the tool's
   * input schema is a flat object of simple fields (text, numbers, yes/no, choices) the person may
   * change the values (see {@link ApprovalDecision.editedInput} for what that does).
   */
  tools?: ToolSet;
  /** The deadline, as a span from each ask; when it passes, the call is refused (`expired`). */
  within?: Within;
  /** Facts shown beside every ask, after the tool's name and input. */
  context?: Record<string, string | number | boolean>;
  /** Where Parley posts each ask's outcome as a webhook (`ask.answered`, `ask.nothing`). */
  callbackUrl?: string;
  /** Your data kept with each ask (a conversation id, to find the messages again from a webhook). The adapter adds `ai_sdk.approval_id` and `ai_sdk.tool_call_id`. */
  metadata?: Record<string, unknown>;
}

/** One approval request and the Parley ask that puts it to a person. */
export interface ApprovalAsk {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  /** The input the model gave the tool. */
  input: unknown;
  /** The ask as it is now: open, answered, or closed with nothing. */
  ask: Ask;
}

/** What a person's answer (or its absence) decided for one approval request. */
export interface ApprovalDecision {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  /** Whether the tool runs. */
  approved: boolean;
  /** Who decided and why, in words: the model reads it when the call is refused. */
  reason: string;
  /**
   * The input the person approved instead of the model's, when they changed values. The AI SDK runs
   * an approved call only with the input the model gave (it re-checks that before running), so an
   * edit refuses this call, telling the model the person's values; when the model calls the tool
   * again with exactly those, {@link resolveApprovals} approves that call without asking again.
   */
  editedInput?: Record<string, unknown>;
  /** The ask that decided it (for the one approved by an earlier edit: that earlier ask). */
  ask: Ask;
}

/** Options of {@link resolveApprovals}. */
export interface ResolveApprovalsOptions extends ApprovalAskOptions {
  /** Seconds to wait for decisions not in yet: 0 (the default) only looks; more long-polls until all are decided or the time is up. */
  wait?: number;
  /** Stops waiting; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** What {@link resolveApprovals} gives back. */
export interface ResolvedApprovals {
  /**
   * The conversation with a `tool-approval-response` for every pending request, once all are decided
   * — pass it to the next `generateText`, which runs the approved calls and tells the model of the
   * refused ones. While any is undecided, the messages as given (a step's calls are answered together).
   */
  messages: ModelMessage[];
  /** The decisions made so far. */
  decided: ApprovalDecision[];
  /** The requests still waiting for a person. */
  waiting: ApprovalAsk[];
}

const TITLE_LIMIT = 300;
const BODY_LIMIT = 10_000;
const CONTEXT_TEXT_LIMIT = 2_000;
const CONTEXT_FACTS_LIMIT = 50;
const SIMPLE_TYPES = new Set(["string", "number", "integer", "boolean"]);
const KEPT_KEYWORDS = ["type", "enum", "description", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength"];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((each, index) => sameJson(each, b[index]));
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a).filter((key) => a[key] !== undefined);
  return keys.length === Object.keys(b).filter((key) => b[key] !== undefined).length && keys.every((key) => sameJson(a[key], b[key]));
}

function fitsType(value: unknown, type: string): boolean {
  if (type === "string") return typeof value === "string";
  if (type === "boolean") return typeof value === "boolean";
  if (type === "integer") return Number.isInteger(value);
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * The person-editable form of a tool's input, when its schema is a flat object of simple fields:
 * each field with the model's value as its default. Undefined when the input cannot be edited here.
 */
async function editableInput(tools: ToolSet | undefined, call: ConversationToolCall): Promise<JsonSchemaObject | undefined> {
  const tool = tools?.[call.toolName];
  if (!tool?.inputSchema || !isPlainObject(call.input)) return undefined;
  const schema = (await asSchema(tool.inputSchema).jsonSchema) as JsonSchemaObject;
  if (schema.type !== "object" || !isPlainObject(schema.properties)) return undefined;
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!isPlainObject(property) || typeof property.type !== "string" || !SIMPLE_TYPES.has(property.type)) return undefined;
    if (property.enum !== undefined && !(Array.isArray(property.enum) && property.enum.every((choice) => fitsType(choice, property.type as string)))) return undefined;
    const field: JsonSchemaObject = {};
    for (const keyword of KEPT_KEYWORDS) if (property[keyword] !== undefined) field[keyword] = property[keyword];
    const value = call.input[name];
    if (value !== undefined) {
      if (!fitsType(value, property.type)) return undefined;
      field.default = value;
      required.push(name);
    }
    properties[name] = field;
  }
  if (Object.keys(properties).length === 0) return undefined;
  return { type: "object", description: "The input it will run with. Change a value to approve it with yours instead.", properties, required };
}

/** The facts shown beside the ask: the tool, then the input's simple values. */
function contextOf(call: ConversationToolCall, extra: Record<string, string | number | boolean> | undefined): Record<string, string | number | boolean> {
  const context: Record<string, string | number | boolean> = { tool: call.toolName };
  if (isPlainObject(call.input)) {
    for (const [name, value] of Object.entries(call.input)) {
      if (Object.keys(context).length >= CONTEXT_FACTS_LIMIT) break;
      if (name in context || name.length > 100) continue;
      if (typeof value === "number" || typeof value === "boolean") context[name] = value;
      else if (typeof value === "string" && value !== "") context[name] = value.slice(0, CONTEXT_TEXT_LIMIT);
    }
  }
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (Object.keys(context).length >= CONTEXT_FACTS_LIMIT) break;
    context[name] = value;
  }
  return context;
}

/** The ask for one approval request: the same request every time, so its Idempotency-Key finds it again. */
async function approvalAsk(request: PendingApprovalRequest, options: ApprovalAskOptions, signal: AbortSignal | undefined): Promise<Ask> {
  const call = request.toolCall;
  const tool = options.tools?.[call.toolName];
  const input = await editableInput(options.tools, call);
  const description = typeof tool?.description === "string" && tool.description.trim() !== "" ? `${tool.description.trim()}\n\n` : "";
  const body = `${description}The agent wants to run ${call.toolName} with this input:\n\n${JSON.stringify(call.input ?? null, null, 2)}`;
  const { ask } = await options.client.createAsk(
    {
      to: options.to,
      title: `Allow the agent to run ${call.toolName}?`.slice(0, TITLE_LIMIT),
      body: body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT - 1)}…` : body,
      context: contextOf(call, options.context),
      responseSchema: {
        type: "object",
        properties: {
          decision: {
            type: "string",
            description: `Run ${call.toolName}?`,
            oneOf: [
              { const: "approve", title: "Approve" },
              { const: "reject", title: "Reject" },
            ],
          },
          reason: { type: "string", description: "Anything the agent should know: it reads this" },
          ...(input ? { input } : {}),
        },
        required: input ? ["decision", "input"] : ["decision"],
      },
      ...(options.within ? { within: options.within } : {}),
      ...(options.callbackUrl ? { callbackUrl: options.callbackUrl } : {}),
      metadata: { ...options.metadata, ai_sdk: { approval_id: request.approvalId, tool_call_id: call.toolCallId } },
    },
    { idempotencyKey: `ai-sdk-approval:${request.approvalId}`, ...(signal ? { signal } : {}) },
  );
  return ask;
}

/**
 * Puts each `tool-approval-request` the conversation has not answered to a person as a Parley ask:
 * the tool's name and input shown, approve or reject, a reason, and — for a flat input of simple
 * fields, with `tools` given — the input's values, which the person may change. One ask per request,
 * its Idempotency-Key derived from the approval id: calling this again (or {@link resolveApprovals})
 * finds the same asks, as they are now, and never asks twice.
 */
export async function askForApprovals(messages: readonly ModelMessage[], options: ApprovalAskOptions & { signal?: AbortSignal }): Promise<ApprovalAsk[]> {
  return askFor(pendingApprovalRequests(messages), options);
}

async function askFor(pending: readonly PendingApprovalRequest[], options: ApprovalAskOptions & { signal?: AbortSignal }): Promise<ApprovalAsk[]> {
  return Promise.all(
    pending.map(async (request) => ({
      approvalId: request.approvalId,
      toolCallId: request.toolCall.toolCallId,
      toolName: request.toolCall.toolName,
      input: request.toolCall.input,
      ask: await approvalAsk(request, options, options.signal),
    })),
  );
}

/** The decision an ask holds for its request; undefined while it is open. */
function decisionOf(request: ApprovalAsk, asked: string | readonly string[]): ApprovalDecision | undefined {
  const { ask } = request;
  const base = { approvalId: request.approvalId, toolCallId: request.toolCallId, toolName: request.toolName, ask };
  if (ask.status === "open") return undefined;
  if (ask.status === "nothing") {
    const who = ask.declined_by?.name ?? recipientsText(asked);
    return { ...base, approved: false, reason: `Not approved: ${nothingText(ask.reason, who, ask.note)}` };
  }
  const answer = isPlainObject(ask.answer) ? ask.answer : {};
  const who = ask.answered_by?.name ?? recipientsText(asked);
  const note = typeof answer.reason === "string" && answer.reason.trim() !== "" ? answer.reason.trim() : undefined;
  if (answer.decision !== "approve") return { ...base, approved: false, reason: `${who} rejected it${note ? `: ${note}` : "."}` };
  const original = isPlainObject(request.input) ? request.input : {};
  const edits = isPlainObject(answer.input) ? answer.input : {};
  const editedInput = { ...original, ...edits };
  if (sameJson(editedInput, original)) return { ...base, approved: true, reason: `Approved by ${who}${note ? `: ${note}` : "."}` };
  return {
    ...base,
    approved: false,
    editedInput,
    reason:
      `${who} did not approve this input but approved the same call with changed values (Parley ask ${ask.id})${note ? `, writing: ${note}` : ""}. ` +
      `If you still want it, call ${request.toolName} again with exactly this input: ${JSON.stringify(editedInput)}`,
  };
}

/** How a refusal {@link decisionOf} wrote for an edit names the ask that holds the person's values. */
const EDIT_ASK = /approved the same call with changed values \(Parley ask ([^\s)]+)\)/;

/**
 * Approvals a person already gave by editing: for each pending request, an earlier refusal in the
 * conversation for the same tool whose person-edited input is exactly this one. The refusal's text
 * only names the ask; the values are read from Parley (that ask's answer, checked to belong to that
 * approval request), never from the conversation.
 */
async function approvedByEdit(messages: readonly ModelMessage[], pending: readonly PendingApprovalRequest[], options: ResolveApprovalsOptions): Promise<Map<string, ApprovalDecision>> {
  const found = new Map<string, ApprovalDecision>();
  if (pending.length === 0) return found;
  const wanted = new Set(pending.map((request) => request.toolCall.toolName));
  const calls = toolCallsById(messages);
  const requests: Record<string, PendingApprovalRequest> = Object.create(null);
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      const call = part.type === "tool-approval-request" ? calls[part.toolCallId] : undefined;
      if (part.type === "tool-approval-request" && call && wanted.has(call.toolName)) requests[part.approvalId] = { approvalId: part.approvalId, toolCall: call };
    }
  }
  const edits: { request: PendingApprovalRequest; askId: string }[] = [];
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      const askId = part.type === "tool-approval-response" && !part.approved ? EDIT_ASK.exec(part.reason ?? "")?.[1] : undefined;
      const request = part.type === "tool-approval-response" ? requests[part.approvalId] : undefined;
      if (askId && request) edits.push({ request, askId });
    }
  }
  const decisions = await Promise.all(
    edits.map(async ({ request, askId }) => {
      const ask = await options.client.getAsk(askId, options.signal ? { signal: options.signal } : {});
      const owner = (ask.metadata?.ai_sdk as { approval_id?: unknown } | undefined)?.approval_id;
      if (owner !== request.approvalId) return undefined;
      return decisionOf({ approvalId: request.approvalId, toolCallId: request.toolCall.toolCallId, toolName: request.toolCall.toolName, input: request.toolCall.input, ask }, options.to);
    }),
  );
  for (const request of pending) {
    const edit = decisions.find((decision) => decision?.editedInput && decision.toolName === request.toolCall.toolName && sameJson(decision.editedInput, request.toolCall.input));
    if (!edit) continue;
    const who = edit.ask.answered_by?.name ?? recipientsText(options.to);
    found.set(request.approvalId, {
      approvalId: request.approvalId,
      toolCallId: request.toolCall.toolCallId,
      toolName: request.toolCall.toolName,
      approved: true,
      reason: `Approved by ${who}, who gave this input (Parley ask ${edit.ask.id}).`,
      ask: edit.ask,
    });
  }
  return found;
}

/**
 * Turns the people's answers to the conversation's approval asks into `tool-approval-response`
 * parts, appended where the AI SDK reads them, so the next `generateText` runs the approved calls
 * and tells the model why the others did not run. A rejection carries the person's reason; nobody
 * answering (declined, expired, cancelled…) is a refusal with that reason in words.
 *
 * Makes the asks it does not find (so calling it right after `generateText` is enough), and works
 * from the messages alone: another process, hours later, with the same options, finds the same
 * asks. Returns a new array; the messages given are not changed.
 */
export async function resolveApprovals(messages: readonly ModelMessage[], options: ResolveApprovalsOptions): Promise<ResolvedApprovals> {
  const wait = options.wait ?? 0;
  if (!(wait >= 0)) throw new RangeError("wait is a number of seconds, 0 or more.");
  const pending = pendingApprovalRequests(messages);
  const byEdit = await approvedByEdit(messages, pending, options);
  // A call the person already approved by editing is not asked about again.
  const asks = await askFor(
    pending.filter((request) => !byEdit.has(request.approvalId)),
    options,
  );

  const deadline = Date.now() + wait * 1000;
  const request = options.signal ? { signal: options.signal } : {};
  for (;;) {
    const open = asks.filter((each) => each.ask.status === "open");
    const remaining = Math.floor((deadline - Date.now()) / 1000);
    if (open.length === 0 || remaining <= 0) break;
    const hold = Math.min(60, remaining);
    await Promise.all(
      open.map(async (each) => {
        each.ask = await options.client.getAsk(each.ask.id, { wait: hold, ...request });
      }),
    );
  }

  const decided: ApprovalDecision[] = [];
  const waiting: ApprovalAsk[] = [];
  for (const each of pending) {
    const edit = byEdit.get(each.approvalId);
    const asked = asks.find((candidate) => candidate.approvalId === each.approvalId);
    const decision = edit ?? (asked ? decisionOf(asked, options.to) : undefined);
    if (decision) decided.push(decision);
    else if (asked) waiting.push(asked);
  }
  if (waiting.length > 0 || decided.length === 0) return { messages: [...messages], decided, waiting };
  const responses: ToolApprovalResponse[] = decided.map((decision) => ({ type: "tool-approval-response", approvalId: decision.approvalId, approved: decision.approved, reason: decision.reason }));
  return { messages: withApprovalResponses(messages, responses), decided, waiting };
}
