import type { CreateAskInput } from "../parley-client.js";
import type { Ask, JsonSchemaObject } from "../types.js";
import type { PersonAnswer, PersonQuestion } from "./ask-person.js";

/** An interrupt a thread is paused on, as LangGraph records it: its id, the value the node gave `interrupt()`, and the `responseSchema` it named, if any. */
export interface PendingInterrupt {
  /** LangGraph's interrupt id: what `Command({ resume: { [id]: value } })` names. */
  id: string;
  value: unknown;
  /** JSON Schema a node passed as `interrupt(value, { responseSchema })`. */
  response_schema?: JsonSchemaObject;
}

/** A checkpoint's pending write, as a checkpointer's `getTuple` lists it: task id, channel, value. */
export type PendingWrite = readonly [taskId: string, channel: string, value: unknown];

/** Where an ask came from: the adapter's entry in the ask's `metadata` (under `langgraph`). */
export interface InterruptLink {
  /** The graph's name, as the adapter was given it. */
  graph: string;
  thread_id: string;
  interrupt_id: string;
}

/** The channels of a task's writes that are not its output (LangGraph's `isTaskOutput`). */
const NOT_OUTPUT = new Set(["__error__", "__error_source_node__", "__interrupt__", "__resume__"]);

/**
 * The interrupts still waiting for a value among a checkpoint's pending writes (a checkpointer's
 * `getTuple(config).pendingWrites`). An interrupt stays in the writes — and in
 * `getState().tasks[].interrupts` — after it was answered, so it counts as waiting only while its
 * task wrote no output and no resume names it (`Command({ resume: { [id]: value } })` writes one under
 * the interrupt's id, which a node that returns nothing leaves as the only trace). A task that asked
 * twice in a row lists only its latest interrupt.
 */
export function pendingInterrupts(writes: readonly PendingWrite[]): PendingInterrupt[] {
  const finished = new Set(writes.filter(([, channel]) => !NOT_OUTPUT.has(channel)).map(([taskId]) => taskId));
  const resumed = new Set(writes.filter(([, channel]) => channel === "__resume__").map(([taskId]) => taskId));
  const pending: PendingInterrupt[] = [];
  const seen = new Set<string>();
  for (const [taskId, channel, value] of writes) {
    if (channel !== "__interrupt__" || finished.has(taskId) || !Array.isArray(value)) continue;
    for (const entry of value as unknown[]) {
      if (!isRecord(entry) || typeof entry.id !== "string" || seen.has(entry.id) || resumed.has(entry.id)) continue;
      seen.add(entry.id);
      pending.push({ id: entry.id, value: entry.value, ...(isRecord(entry.response_schema) ? { response_schema: entry.response_schema } : {}) });
    }
  }
  return pending;
}

/**
 * The ask an interrupt stands for, or undefined when it is not a question for a person: its value is
 * a {@link PersonQuestion} (an object with a `title`), or a bare string taken as the title. `to` falls
 * back to `defaultTo`; without either there is nobody to ask. The schema is the question's
 * `response_schema`, else the one given to `interrupt(value, { responseSchema })`.
 */
export function askInputOf(pending: PendingInterrupt, defaultTo?: string | readonly string[]): CreateAskInput | undefined {
  const question: Partial<PersonQuestion> | undefined = typeof pending.value === "string" ? { title: pending.value } : isRecord(pending.value) ? (pending.value as Partial<PersonQuestion>) : undefined;
  if (!question || typeof question.title !== "string" || question.title.trim() === "") return undefined;
  const to = question.to ?? defaultTo;
  if (to === undefined || (typeof to !== "string" && !Array.isArray(to))) return undefined;
  const input: CreateAskInput = { to, title: question.title };
  if (question.body !== undefined) input.body = question.body;
  if (question.context !== undefined) input.context = question.context;
  const responseSchema = question.response_schema ?? pending.response_schema;
  if (responseSchema !== undefined) input.responseSchema = responseSchema;
  if (question.due_in_seconds !== undefined) input.within = { seconds: question.due_in_seconds };
  if (question.due_at !== undefined) input.dueAt = question.due_at;
  if (question.attempts !== undefined) input.attempts = question.attempts;
  if (question.metadata !== undefined) input.metadata = question.metadata;
  return input;
}

/** The ask's `metadata` with the adapter's link added under `langgraph`, beside the question's own. */
export function metadataWithLink(metadata: Record<string, unknown> | undefined, link: InterruptLink): Record<string, unknown> {
  return { ...metadata, langgraph: link };
}

/** The adapter's link in an ask's metadata, or undefined for an ask the adapter did not make. */
export function interruptLinkOf(ask: Pick<Ask, "metadata">): InterruptLink | undefined {
  const link = ask.metadata?.langgraph;
  if (!isRecord(link) || typeof link.graph !== "string" || typeof link.thread_id !== "string" || typeof link.interrupt_id !== "string") return undefined;
  return { graph: link.graph, thread_id: link.thread_id, interrupt_id: link.interrupt_id };
}

/** An ask's outcome as the value the thread is resumed with; undefined while it is open. */
export function resumeValueOf(ask: Ask): PersonAnswer<unknown> | undefined {
  if (ask.status === "open") return undefined;
  if (ask.status === "answered") return { ok: true, value: ask.answer, ask };
  return ask.note ? { ok: false, reason: ask.reason, note: ask.note, ask } : { ok: false, reason: ask.reason, ask };
}

const PRINTABLE = /^[\x21-\x7e]+$/;
const MAX_KEY_LENGTH = 255;

/**
 * The Idempotency-Key of an interrupt's ask: the same graph, thread and interrupt always give the same
 * key, so asking again — after a crash, from another process — returns the ask made before. Readable
 * (`langgraph:<graph>:<thread>:<interrupt>`) when that fits the API's 255 printable characters; a
 * SHA-256 of the three otherwise.
 */
export async function idempotencyKeyOf(link: InterruptLink): Promise<string> {
  const readable = `langgraph:${link.graph}:${link.thread_id}:${link.interrupt_id}`;
  // A graph name with a colon could make two links read alike; those are hashed.
  if (readable.length <= MAX_KEY_LENGTH && PRINTABLE.test(readable) && !link.graph.includes(":")) return readable;
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify([link.graph, link.thread_id, link.interrupt_id])));
  return `langgraph:sha256:${[...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
