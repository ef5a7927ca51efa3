import { interrupt } from "@langchain/langgraph";
import { ParleyAnswerError } from "../errors.js";
import { type AnswerOf, type AnswerSchema, jsonSchemaOf } from "../parley-client.js";
import type { Ask, AskInput, JsonSchemaObject, NothingReason } from "../types.js";

/**
 * The interrupt value the adapter turns into a Parley ask: the fields of `POST /api/v1/asks`, as the
 * API spells them. {@link askPerson} builds it; a node may also pass one to LangGraph's `interrupt()`
 * itself. `to` may be left out when the adapter was given a default recipient.
 */
export interface PersonQuestion {
  /** One person's email, or several (any one of them may answer). */
  to?: string | string[];
  /** What the person reads first. */
  title: string;
  /** More detail, shown with the question. */
  body?: string;
  /** Facts shown beside the question. */
  context?: Record<string, string | number | boolean>;
  /** The answer's shape as JSON Schema: each property becomes one question. Without it, one free-text answer. */
  response_schema?: JsonSchemaObject;
  /** The deadline, in seconds from when the ask is made. */
  due_in_seconds?: number;
  /** The deadline as an ISO 8601 moment. */
  due_at?: string;
  /** Refused submissions allowed before the ask closes with nothing (`refused`). */
  attempts?: number;
  /** Your own data, kept with the ask (the adapter adds its `langgraph` entry beside it). */
  metadata?: Record<string, unknown>;
}

/**
 * What a node gets back from a person, as the graph is resumed with it: `{ ok: true, value }` with the
 * answer, or `{ ok: false, reason, note? }` when nobody will answer — declined, away, expired, refused,
 * cancelled — for the graph to branch on. `ask` is Parley's ask (who answered, when, its page) when the
 * answer came through Parley; a thread resumed by hand with a bare value has none.
 */
export type PersonAnswer<Value> =
  | { readonly ok: true; readonly value: Value; readonly ask?: Ask }
  | { readonly ok: false; readonly reason: NothingReason; readonly note?: string; readonly ask?: Ask };

/** What {@link askPerson} asks: the client's ask input, with a zod `schema` or a JSON `responseSchema`. */
export interface PersonRequest extends Omit<AskInput, "callbackUrl" | "to"> {
  /** Who answers; may be left out when the adapter was given a default recipient. */
  to?: string | readonly string[];
  /** The answer's shape as a zod object: each property one question (its `.describe()` is the question); the answer comes back parsed by it. */
  schema?: AnswerSchema;
}

/**
 * Asks a person from inside a LangGraph node: pauses the graph with LangGraph's `interrupt()` (the
 * graph needs a checkpointer), and once the adapter resumes the thread with the person's answer,
 * returns it — typed by `schema` when one is given, a string for a free-text question, an object for a
 * `responseSchema`. Nobody answering comes back as `{ ok: false, reason }`, not as an error.
 *
 * ```ts
 * const answer = await askPerson({ to: "sam@example.com", title: "Deploy 4.2?", schema: z.object({ go: z.boolean().describe("Deploy now?") }) });
 * return answer.ok ? { approved: answer.value.go } : { approved: false, why: answer.reason };
 * ```
 *
 * As with every `interrupt()`, the node runs again from its start when the thread is resumed, so keep
 * side effects after the question, or make them safe to repeat; do not wrap the call in a `try` that
 * swallows LangGraph's `GraphInterrupt`. Throws {@link ParleyAnswerError} if Parley accepted an answer
 * the zod schema refuses on a second look (a `.refine` JSON Schema cannot carry).
 */
export async function askPerson<Schema extends AnswerSchema>(request: PersonRequest & { schema: Schema }): Promise<PersonAnswer<AnswerOf<Schema>>>;
export async function askPerson(request: PersonRequest & { schema?: undefined; responseSchema: JsonSchemaObject }): Promise<PersonAnswer<Record<string, unknown>>>;
export async function askPerson(request: PersonRequest & { schema?: undefined; responseSchema?: undefined }): Promise<PersonAnswer<string>>;
export async function askPerson(request: PersonRequest): Promise<PersonAnswer<unknown>> {
  const question = await personQuestion(request);
  // interrupt() throws LangGraph's GraphInterrupt until the thread is resumed with a value for it.
  const resumed: unknown = interrupt(question);
  const answer = personAnswerOf(resumed);
  if (!answer.ok || !request.schema) return answer;
  const parsed = await request.schema.safeParseAsync(answer.value);
  if (parsed.success) return { ...answer, value: parsed.data };
  const first = parsed.error.issues[0];
  const message = `Parley accepted an answer your schema refuses${first ? ` (${first.path.map(String).join(".") || "the answer"}: ${first.message})` : ""}.`;
  if (answer.ask) throw new ParleyAnswerError(answer.ask, parsed.error.issues, message);
  throw new TypeError(message);
}

/**
 * The interrupt value {@link askPerson} pauses with, for a node that calls `interrupt()` itself: the
 * request in the API's words, a zod `schema` turned into JSON Schema (describing what the person
 * gives). Throws `TypeError` for a schema JSON Schema cannot represent.
 */
export async function personQuestion(request: PersonRequest): Promise<PersonQuestion> {
  if (request.schema && request.responseSchema) throw new TypeError("Give schema or responseSchema, not both.");
  if (request.within !== undefined && request.dueAt !== undefined) throw new TypeError("Give within or dueAt, not both.");
  const question: PersonQuestion = { title: request.title };
  if (request.to !== undefined) question.to = typeof request.to === "string" ? request.to : [...request.to];
  if (request.body !== undefined) question.body = request.body;
  if (request.context !== undefined) question.context = request.context;
  if (request.schema) question.response_schema = await jsonSchemaOf(request.schema);
  else if (request.responseSchema) question.response_schema = request.responseSchema;
  if (request.within !== undefined) {
    const { days = 0, hours = 0, minutes = 0, seconds = 0 } = request.within;
    question.due_in_seconds = Math.round(days * 86_400 + hours * 3_600 + minutes * 60 + seconds);
  }
  if (request.dueAt !== undefined) question.due_at = request.dueAt instanceof Date ? request.dueAt.toISOString() : request.dueAt;
  if (request.attempts !== undefined) question.attempts = request.attempts;
  if (request.metadata !== undefined) question.metadata = request.metadata;
  return question;
}

/**
 * A resume value as a {@link PersonAnswer}: the adapter's own `{ ok, … }` as it is; anything else — a
 * thread resumed by hand, from LangGraph Studio say — as the answer's value.
 */
export function personAnswerOf(resumed: unknown): PersonAnswer<unknown> {
  if (typeof resumed === "object" && resumed !== null && "ok" in resumed) {
    const candidate = resumed as { ok: unknown; reason?: unknown; value?: unknown };
    if (candidate.ok === true && "value" in candidate) return resumed as PersonAnswer<unknown>;
    if (candidate.ok === false && typeof candidate.reason === "string") return resumed as PersonAnswer<unknown>;
  }
  return { ok: true, value: resumed };
}

