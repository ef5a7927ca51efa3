import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { ApiKey } from "@/db/schema";
import { NOTHING_REASONS } from "@/db/schema";
import type { AskService } from "@/lib/asks/asks";
import type { AskView } from "@/lib/asks/ask-view";
import { AppError, isAppError } from "@/lib/errors";
import { argumentPath, askRequestOf, type AskPersonArguments } from "./ask-arguments";

/** What `await_answer` returns: where the ask stands, and its answer or why nobody will answer. */
export const AwaitAnswerOutput = z.object({
  ask_id: z.string(),
  status: z.enum(["open", "answered", "nothing"]),
  answer: z.unknown().optional().describe('When "answered": a string for a free-text ask, else an object of the response schema (or { choice, comment? } for options).'),
  answered_by: z.object({ email: z.string(), name: z.string() }).nullable().optional(),
  answered_at: z.string().nullable().optional(),
  reason: z.enum(NOTHING_REASONS).nullable().optional().describe('When "nothing": why nobody will answer ("declined": the person said they cannot answer it).'),
  declined_by: z.object({ email: z.string(), name: z.string() }).nullable().optional().describe('When "declined": who declined it.'),
  note: z.string().nullable().optional().describe('When "declined": what the person wrote for the asker, if anything.'),
  still_waiting_seconds: z.int().optional().describe('When "open": how long the ask has waited so far. Call await_answer again.'),
});
export type AwaitAnswerOutput = z.output<typeof AwaitAnswerOutput>;

/**
 * A tool's result: the structured value, then as text the same value serialized (what the spec asks
 * of a tool with an output schema, for clients that read only text) and a line telling a model what
 * to do next.
 */
export function toolResult(structured: Record<string, unknown>, text: string): CallToolResult {
  return { structuredContent: structured, content: [{ type: "text", text: JSON.stringify(structured) }, { type: "text", text }] };
}

/** `await_answer`'s view of an ask. */
export function awaited(ask: AskView): AwaitAnswerOutput {
  if (ask.status === "answered") return { ask_id: ask.id, status: "answered", answer: ask.answer, answered_by: ask.answered_by, answered_at: ask.answered_at };
  if (ask.status === "nothing") {
    return ask.reason === "declined" ? { ask_id: ask.id, status: "nothing", reason: ask.reason, declined_by: ask.declined_by, note: ask.note } : { ask_id: ask.id, status: "nothing", reason: ask.reason };
  }
  return { ask_id: ask.id, status: "open", still_waiting_seconds: ask.waited_seconds };
}

/** `await_answer`'s words for a model that reads only text. */
export function awaitedText(view: AwaitAnswerOutput): string {
  if (view.status === "answered") return `${view.answered_by?.name ?? "The person"} answered: ${typeof view.answer === "string" ? view.answer : JSON.stringify(view.answer)}`;
  if (view.status === "nothing" && view.reason === "declined") {
    const told = view.note ? ` Their note: ${view.note}` : "";
    return `${view.declined_by?.name ?? "The person"} declined to answer.${told} Do not wait for this ask any more.`;
  }
  if (view.status === "nothing") return `Nobody will answer (${view.reason}). Do not wait for this ask any more.`;
  return `Still waiting (${view.still_waiting_seconds} s so far). Call await_answer again with ask_id ${view.ask_id}.`;
}

/**
 * Asks as `ask_person` asks, `args` already parsed. A refusal is an `AppError` whose path is the
 * argument at fault, in `ask_person`'s terms.
 */
export async function askPerson(service: AskService, key: ApiKey, args: AskPersonArguments): Promise<AskView> {
  if (args.options && args.response_schema) {
    throw new AppError("invalid_input", "Give options or response_schema, not both.", { path: "response_schema" });
  }
  try {
    const { ask } = await service.create(key, askRequestOf(args), { idempotencyKey: args.idempotency_key ?? null });
    return ask;
  } catch (error) {
    if (!isAppError(error)) throw error;
    const path = argumentPath(error.path, args);
    if (path === error.path) throw error;
    throw new AppError(error.code, error.message, { cause: error, ...(path === undefined ? {} : { path }), ...(error.details ? { details: { ...error.details } } : {}) });
  }
}
