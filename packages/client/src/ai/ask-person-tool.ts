import { jsonSchema, type StopCondition, type Tool, tool, type ToolSet } from "ai";

import type { AnswerSchema, ParleyClient } from "../parley-client.js";
import type { Ask, JsonSchemaObject, NothingReason, Within } from "../types.js";
import { nothingText, recipientsText } from "./conversation.js";

/** What the model gives when it calls the tool: the question it wants a person to answer. */
export interface AskPersonInput {
  /** The question, short and complete: what the person reads first. */
  question: string;
  /** What the person needs to know to answer. */
  details?: string;
  /** The answers to choose from, when the answer is one of a few (offered only without an app-given schema). */
  choices?: string[];
}

/**
 * The tool's result as the model reads it: a ticket while the person has not answered (`waiting`),
 * then — once {@link resolvePersonAnswers} has looked — the answer (`answered`, `ok: true`) or why
 * nobody answered (`nothing`, `ok: false` with `reason` and a `message` in words). Plain JSON.
 */
export type PersonAskResult = PersonTicket | PersonAnswered | PersonNothing;

/** The ask is open: the person has not answered yet. */
export interface PersonTicket {
  kind: "parley-ask";
  status: "waiting";
  /** The Parley ask's id. */
  askId: string;
  /** The question's id on the person's side (the `question.*` webhooks name it). */
  questionId: string;
  /** The question's page, where the person answers it. */
  url: string;
  /** Who was asked. */
  to: string;
  /** The choices offered, when the model gave some (the answer then comes back as the chosen one). */
  choices?: string[];
  /** For the model: what the ticket means. */
  message: string;
}

/** The person answered. */
export interface PersonAnswered {
  kind: "parley-ask";
  status: "answered";
  ok: true;
  askId: string;
  /** The answer: the chosen choice, the person's text, or an object of the app's schema's properties. */
  answer: unknown;
  /** Who answered (`Sam Lee <sam@example.com>`), when Parley knows. */
  answeredBy: string | null;
}

/** Nobody answered: the ask closed with nothing. */
export interface PersonNothing {
  kind: "parley-ask";
  status: "nothing";
  ok: false;
  askId: string;
  /** Why: `declined`, `expired`, `away`, `cancelled`, `refused`, `non-interactive`, `unavailable`. */
  reason: NothingReason;
  /** What the person who declined wrote, when they wrote something. */
  note?: string;
  /** For the model: what happened, in words it can act on. */
  message: string;
}

/** Options of {@link askPersonTool}. */
export interface AskPersonToolOptions {
  /** The Parley client to ask with (`createParleyClient`). */
  client: ParleyClient;
  /** Who may answer: one person's email, or several (any one of them). The app decides, never the model. */
  to: string | readonly string[];
  /** What the model reads about the tool; a sensible default names who is asked. */
  description?: string;
  /** The answer's shape, as a zod object (each property one question). Without it the person answers in free text, or picks one of the model's `choices`. */
  schema?: AnswerSchema;
  /** The answer's shape as a JSON Schema object, for apps without zod. */
  responseSchema?: JsonSchemaObject;
  /** The deadline, as a span from each ask. */
  within?: Within;
  /** Facts shown beside every question (who is asking, the ticket it is about…). */
  context?: Record<string, string | number | boolean>;
  /** Where Parley posts each ask's outcome (`ask.answered`, `ask.nothing`) as a webhook. */
  callbackUrl?: string;
  /** Your data kept with each ask and returned with it (a conversation id, to find the messages again from a webhook). The tool adds `ai_sdk.tool_call_id`. */
  metadata?: Record<string, unknown>;
  /** The Idempotency-Key for a tool call; by default `ai-sdk:<toolCallId>`. The same call made again gets the same ask back. */
  idempotencyKey?: (toolCallId: string) => string;
}

/** The tool as the AI SDK sees it. */
export type AskPersonTool = Tool<AskPersonInput, PersonAskResult>;

const TITLE_LIMIT = 300;
const BODY_LIMIT = 10_000;

/** The tool's input schema: with `choices` only when the answer's shape is the model's to choose. */
function inputSchema(withChoices: boolean) {
  const properties: Record<string, object> = {
    question: { type: "string", description: `The question, short and complete: what the person reads first (at most ${TITLE_LIMIT} characters).` },
    details: { type: "string", description: "What the person needs to know to answer: the situation, what you tried, what each answer will lead to." },
  };
  if (withChoices) properties.choices = { type: "array", items: { type: "string" }, description: "The answers to choose from, when the answer is one of a few. Leave out for a free-text answer." };
  return jsonSchema<AskPersonInput>(
    { type: "object", properties, required: ["question"], additionalProperties: false },
    {
      validate(value) {
        const input = value as Partial<AskPersonInput> | null;
        const problem =
          typeof input !== "object" || input === null
            ? "The input must be an object."
            : typeof input.question !== "string" || input.question.trim() === ""
              ? "question must be a non-empty string."
              : input.details !== undefined && typeof input.details !== "string"
                ? "details must be a string."
                : input.choices !== undefined && (!withChoices || !Array.isArray(input.choices) || !input.choices.every((choice) => typeof choice === "string" && choice.trim() !== ""))
                  ? withChoices
                    ? "choices must be a list of non-empty strings."
                    : "choices are not taken: the answer's shape is fixed."
                  : undefined;
        return problem ? { success: false, error: new TypeError(problem) } : { success: true, value: value as AskPersonInput };
      },
    },
  );
}

/** The choices, trimmed, each once. */
function distinct(choices: readonly string[]): string[] {
  return [...new Set(choices.map((choice) => choice.trim()))];
}

/**
 * An ask's state as the tool's result: a ticket while it is open, else its outcome. `choices` unwraps
 * the answer of a question the tool asked as a pick among the model's choices.
 */
export function personAskResult(ask: Ask, who: string, choices?: readonly string[]): PersonAskResult {
  if (ask.status === "open") {
    return {
      kind: "parley-ask",
      status: "waiting",
      askId: ask.id,
      questionId: ask.question_id,
      url: ask.url,
      to: who,
      ...(choices ? { choices: [...choices] } : {}),
      message: `Asked ${who}. They have not answered yet; their answer will arrive as this tool's result. Do not ask again.`,
    };
  }
  if (ask.status === "answered") {
    const answer = choices && typeof ask.answer === "object" && "choice" in ask.answer ? ask.answer.choice : ask.answer;
    const answeredBy = ask.answered_by ? `${ask.answered_by.name} <${ask.answered_by.email}>` : null;
    return { kind: "parley-ask", status: "answered", ok: true, askId: ask.id, answer, answeredBy };
  }
  const decliner = ask.declined_by ? ask.declined_by.name : who;
  return {
    kind: "parley-ask",
    status: "nothing",
    ok: false,
    askId: ask.id,
    reason: ask.reason,
    ...(ask.note ? { note: ask.note } : {}),
    message: `${nothingText(ask.reason, decliner, ask.note)} Carry on without their answer.`,
  };
}

/**
 * An AI SDK tool the model calls to ask a person. Its `execute` makes the Parley ask and returns at
 * once with a ticket (`status: "waiting"`, the ask's id and page): no request is held while the person
 * thinks. Stop the loop there (`stopWhen: isWaitingForPerson()`), store the messages, and later call
 * {@link resolvePersonAnswers}: it puts the answer — or `{ ok: false, reason, message }` when nobody
 * answered — in place of the ticket, so the next `generateText` reads it as the tool's result.
 *
 * The ask's Idempotency-Key comes from the tool call's id, so running the same call again (a replayed
 * step, a retry after a crash) gets the same ask back and never asks twice. A lasting refusal (an
 * unknown person: a {@link ParleyApiError}) fails the call, and the model reads the error.
 */
export function askPersonTool(options: AskPersonToolOptions): AskPersonTool {
  if (options.schema && options.responseSchema) throw new TypeError("Give schema or responseSchema, not both.");
  const who = recipientsText(options.to);
  const fixedShape = Boolean(options.schema || options.responseSchema);
  const keyOf = options.idempotencyKey ?? ((toolCallId: string) => `ai-sdk:${toolCallId}`);
  return tool<AskPersonInput, PersonAskResult>({
    description:
      options.description ??
      `Ask ${who} a question and get their answer. Use it when you need a person's decision or knowledge you cannot find yourself. The answer does not come at once: the result is a ticket, and the answer arrives as this tool's result later.`,
    inputSchema: inputSchema(!fixedShape),
    async execute(input, { toolCallId, abortSignal }) {
      const choices = !fixedShape && input.choices && input.choices.length > 0 ? distinct(input.choices) : undefined;
      const responseSchema = choices
        ? { type: "object", properties: { choice: { type: "string", enum: choices, description: "Your answer" } }, required: ["choice"] }
        : options.responseSchema;
      const { ask } = await options.client.createAsk(
        {
          to: options.to,
          title: input.question.trim().slice(0, TITLE_LIMIT),
          ...(input.details ? { body: input.details.slice(0, BODY_LIMIT) } : {}),
          ...(options.schema ? { schema: options.schema } : responseSchema ? { responseSchema } : {}),
          ...(options.within ? { within: options.within } : {}),
          ...(options.context ? { context: options.context } : {}),
          ...(options.callbackUrl ? { callbackUrl: options.callbackUrl } : {}),
          metadata: { ...options.metadata, ai_sdk: { tool_call_id: toolCallId } },
        },
        { idempotencyKey: keyOf(toolCallId), ...(abortSignal ? { signal: abortSignal } : {}) },
      );
      return personAskResult(ask, who, choices);
    },
  });
}

/** Whether a value is one of this adapter's results (the tool's output as the conversation holds it). */
export function isPersonAskResult(value: unknown): value is PersonAskResult {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "parley-ask" && typeof (value as { askId?: unknown }).askId === "string";
}

/**
 * A stop condition for `generateText`/`streamText`: stop once a step leaves a person's answer
 * outstanding (an {@link askPersonTool} call returned its ticket), so the loop parks there rather than
 * letting the model carry on without the answer. Use with the AI SDK's own: `stopWhen: [stepCountIs(10), isWaitingForPerson()]`.
 */
export function isWaitingForPerson<Tools extends ToolSet>(): StopCondition<Tools> {
  return ({ steps }) => steps.at(-1)?.toolResults.some((result: { output: unknown }) => isPersonAskResult(result.output) && result.output.status === "waiting") ?? false;
}
