import { createHash } from "node:crypto";
import { z } from "zod";
import {
  type EventDescription,
  type JsonSchema,
  type StateDescription,
  WORKFLOW_DESCRIPTION_FORMAT,
  type WorkflowDescription,
} from "@/db/types/workflow-description";
import { isAnswerEvent, questionnaireOf, takesGivenSchema } from "./person";
import type { AnyWorkflow } from "./types";

export { type EventDescription, type JsonSchema, type StateDescription, WORKFLOW_DESCRIPTION_FORMAT, type WorkflowDescription };

/**
 * Marks a schema with a check in code (`.refine`, `.superRefine`) that JSON Schema cannot say: Parley
 * knows it is there, not what it checks.
 */
export const REFINED_KEYWORD = "x-parley-refined";

/** Marks a type JSON Schema has no word for (a `Date`, `z.custom`), with zod's reason. */
export const UNREADABLE_KEYWORD = "x-parley-unreadable";

/** A workflow definition as data and its fingerprint: what a run records it was moved by. */
export interface WorkflowDefinitionRecord {
  description: WorkflowDescription;
  /** The SHA-256 of the description's canonical JSON, in hex. */
  fingerprint: string;
}

/**
 * JSON with every object's keys in order of name and nothing undefined: one text for one value,
 * however its objects were built, so equal descriptions have equal fingerprints.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sorted(item)));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = sorted(item);
  }
  return out;
}

/** The custom checks (refinements) zod keeps on a schema: what JSON Schema cannot say. */
function customChecks(schema: unknown): number {
  const checks = (schema as { _zod?: { def?: { checks?: unknown[] } } })._zod?.def?.checks ?? [];
  return checks.filter((check) => (check as { _zod?: { def?: { check?: unknown } } })._zod?.def?.check === "custom").length;
}

/**
 * A zod schema as JSON Schema (draft 2020-12, the input side: what a payload or an answer must be to
 * be taken), with Parley's markers where JSON Schema falls short: {@link REFINED_KEYWORD} on a schema
 * with a check in code, {@link UNREADABLE_KEYWORD} for a type it cannot describe.
 */
export function schemaDescription(schema: z.ZodType): JsonSchema {
  try {
    const json = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io: "input",
      reused: "inline",
      unrepresentable: ({ message }) => ({ [UNREADABLE_KEYWORD]: message }),
      override: ({ zodSchema, jsonSchema }) => {
        if (customChecks(zodSchema) > 0) (jsonSchema as JsonSchema)[REFINED_KEYWORD] = true;
      },
    }) as JsonSchema;
    delete json.$schema;
    return json;
  } catch (error) {
    return { [UNREADABLE_KEYWORD]: error instanceof Error ? error.message : String(error) };
  }
}

function eventDescription(schema: z.ZodType): EventDescription {
  if (!isAnswerEvent(schema)) return { kind: "event", schema: schemaDescription(schema) };
  if (takesGivenSchema(schema)) return { kind: "answer", schema: "given" };
  const questionnaire = questionnaireOf(schema);
  return { kind: "answer", schema: questionnaire ? schemaDescription(questionnaire) : { [UNREADABLE_KEYWORD]: "no questionnaire" } };
}

function stateDescription(state: NonNullable<AnyWorkflow["states"][string]>): StateDescription {
  const description: StateDescription = {};
  if (typeof state.label === "string") description.label = state.label;
  if (state.terminal) description.terminal = state.terminal;
  if (state.enter) description.enter = true;
  const waits = Object.entries(state.subscribe ?? {}).filter(([, subscription]) => subscription);
  if (waits.length > 0) description.waits = Object.fromEntries(waits.map(([event, subscription]) => [event, { deadline: typeof subscription?.unfinished === "function" }]));
  const handles = Object.entries(state.on ?? {}).flatMap(([event, handler]) => (handler ? [event] : []));
  if (handles.length > 0) description.handles = handles.sort();
  return description;
}

/** A workflow definition as data: its states, what each waits for and handles, and each event's schema (see {@link WorkflowDescription}). */
export function describeWorkflow(workflow: AnyWorkflow): WorkflowDescription {
  const states: Record<string, StateDescription> = {};
  for (const name of Object.keys(workflow.states).sort()) {
    const state = workflow.states[name];
    if (state) states[name] = stateDescription(state);
  }
  const events: Record<string, EventDescription> = {};
  for (const name of Object.keys(workflow.events).sort()) {
    const schema = workflow.events[name];
    if (schema) events[name] = eventDescription(schema);
  }
  return { format: WORKFLOW_DESCRIPTION_FORMAT, workflow: workflow.name, initial: workflow.initial, states, events };
}

/** The fingerprint of a description: the SHA-256 of its canonical JSON, in hex. */
export function fingerprintOf(description: WorkflowDescription): string {
  return createHash("sha256").update(canonicalJson(description)).digest("hex");
}

/**
 * Each definition is described once per process (a workflow is a constant of its module), on
 * `globalThis`: Next.js bundles this module once per route, and a page reads the workflows of the
 * registry the server started with — the fingerprint it compares is the one the server's runs record.
 */
const DESCRIBED = Symbol.for("parley.workflow-definitions");
const described = ((globalThis as { [DESCRIBED]?: WeakMap<object, WorkflowDefinitionRecord> })[DESCRIBED] ??= new WeakMap());

/**
 * A registered workflow's description and fingerprint, worked out once per process: what a run
 * records when it starts or enters a state, and what a deployment stores at start.
 */
export function workflowDefinition(workflow: { readonly name: string }): WorkflowDefinitionRecord {
  let record = described.get(workflow);
  if (!record) {
    const description = describeWorkflow(workflow as AnyWorkflow);
    record = { description, fingerprint: fingerprintOf(description) };
    described.set(workflow, record);
  }
  return record;
}

/** The first characters of a fingerprint, as logs and screens name a definition. */
export function shortFingerprint(fingerprint: string): string {
  return fingerprint.slice(0, 12);
}
