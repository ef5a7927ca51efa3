/**
 * A workflow definition as data: what a run parked on it depends on — its states, which events each
 * state waits for and handles, and the schema each event's payload or answer is judged by (as JSON
 * Schema). Its fingerprint (the SHA-256 of its canonical JSON) is what a run records it started on.
 *
 * Its shape lives in db/ because `workflow_definitions` stores it (db/ imports nothing from lib/);
 * lib/runtime/workflow-description.ts makes it and re-exports it.
 */

/** Version of the description's shape; a new one gives every workflow a new fingerprint. */
export const WORKFLOW_DESCRIPTION_FORMAT = 1;

/** A JSON Schema object as zod's `toJSONSchema` writes it (draft 2020-12, the input side), with Parley's markers. */
export type JsonSchema = { [keyword: string]: unknown };

/** One state: what screens call it, whether it ends the run, and what a run parked in it waits for. */
export interface StateDescription {
  /** The state's `label`, when it has one. */
  label?: string;
  /** A terminal state ends the run, as a success or with an error. */
  terminal?: "success" | "error";
  /** Whether it has an `enter` body. */
  enter?: true;
  /** The events it subscribes to (a wait it opens on entering), each with whether the wait has a deadline branch (`unfinished`). */
  waits?: Record<string, { deadline: boolean }>;
  /** The events it has an `on` handler for, in order of name: what a run parked in it can be resumed by. */
  handles?: string[];
}

/**
 * One event: `event`, a payload deposited as it is and judged by `schema`; `answer`, a person's answer
 * to a questionnaire (`answerOf(schema)`), judged by `schema` — or by the schema each ask carries
 * (`"given"`, `answerOfGivenSchema()`).
 */
export type EventDescription = { kind: "event"; schema: JsonSchema } | { kind: "answer"; schema: JsonSchema | "given" };

/** A workflow definition as data (see the module's comment). */
export interface WorkflowDescription {
  format: typeof WORKFLOW_DESCRIPTION_FORMAT;
  workflow: string;
  initial: string;
  states: Record<string, StateDescription>;
  events: Record<string, EventDescription>;
}
