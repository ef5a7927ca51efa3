// Longer than ~250 lines on purpose: most of it is the JSON Schema comparison (which keywords judge an
// answer, how each narrows), one judge read as a whole; split, its rules would be exported for nothing.
import type { EventDescription, JsonSchema, WorkflowDescription } from "@/db/types/workflow-description";
import { canonicalJson, REFINED_KEYWORD, UNREADABLE_KEYWORD } from "./workflow-description";

/**
 * How a workflow's new definition breaks runs parked on an older one. Changes that do not — a new
 * state or event, a new optional field, a choice added, a bound widened, a label or a question's words
 * — are not listed: a run parked on the older definition carries on under the new one.
 */
export type DefinitionChangeKind =
  /** A state runs are parked in is no longer declared: nothing can move them on. */
  | "state-removed"
  /** A state runs are parked in now ends the run: it handles nothing any more. */
  | "state-ends"
  /** An event a parked run waits for is no longer declared. */
  | "event-removed"
  /** A state no longer handles an event its parked runs wait for. */
  | "handler-removed"
  /** A wait's deadline no longer leads anywhere (its `unfinished` branch was removed). */
  | "deadline-removed"
  /** An event that took a person's answer now takes a plain payload, or the other way round. */
  | "event-kind-changed"
  /** The schema an event's answer or payload is judged by refuses something it took before. */
  | "schema-narrowed";

/** One change between two definitions that runs parked on the older one may not survive. */
export interface DefinitionChange {
  kind: DefinitionChangeKind;
  /** The states of the older definition whose runs it breaks (runs parked there, or queued to run there). */
  states: readonly string[];
  /** The event it is about, when it is about one. */
  event?: string;
  /** The field of the event's answer or payload it is about ("address.city", "attendees[]"); absent for the whole. */
  field?: string;
  /** How a narrowed schema refuses what it took, without the event or field ("is now required"). */
  detail?: string;
  /** What changed, in words, with code names: "the state Waiting was removed". */
  change: string;
  /** What it means for a run parked in one of `states`. */
  effect: string;
}

/** One way a schema refuses what an older one took: the field (a path, "" for the whole) and what changed. */
export interface Narrowing {
  field: string;
  change: string;
}

/** Where a run is: the state it is in and — when it waits — the events its open waits take. */
export interface ParkedAt {
  state: string;
  /** The events of its open waits; absent or empty: every event its state waits for or handles. */
  events?: readonly string[];
}

const EFFECTS: Readonly<Record<Exclude<DefinitionChangeKind, "schema-narrowed">, string>> = {
  "state-removed": "nothing can move a run parked there on: an answer or a deadline fails it",
  "state-ends": "a run parked there handles nothing any more: an answer or a deadline fails it",
  "event-removed": "an answer the run waits for is refused: the workflow no longer takes it",
  "handler-removed": "an answer the run waits for fails the run: the state has no handler for it",
  "deadline-removed": "when the wait's deadline passes, the run stays where it is",
  "event-kind-changed": "an answer the run waits for is refused, or fails the run",
};

/** What a narrowed schema means for a parked run, by whether the event takes a person's answer. */
function narrowedEffect(kind: EventDescription["kind"]): string {
  return kind === "answer"
    ? "the question the run waits on, already asked, is judged by the new schema: answers that were valid when it was asked may be refused, and when its attempts run out the run gets nothing"
    : "a payload that was valid may be refused, or fail the run when it resumes";
}

/** The events a run parked in a state of `description` may be waiting for: those it subscribes to and those it handles. */
export function eventsOfState(description: WorkflowDescription, state: string): string[] {
  const definition = description.states[state];
  if (!definition) return [];
  return [...new Set([...Object.keys(definition.waits ?? {}), ...(definition.handles ?? [])])].sort();
}

/**
 * What `after` breaks of runs parked on `before`, in plain words, each with the states of `before`
 * whose runs it breaks. Empty when every run parked on `before` carries on under `after`. Only what a
 * parked run depends on is compared: the state it is in, the events it waits for and the handlers and
 * schemas that take them. Code (a handler's body, a refinement) is not compared.
 */
export function compareDefinitions(before: WorkflowDescription, after: WorkflowDescription): DefinitionChange[] {
  const changes: DefinitionChange[] = [];
  // Only states a run can be parked in: a terminal state has ended its runs.
  const parkable = Object.keys(before.states)
    .filter((state) => !before.states[state]?.terminal)
    .sort();
  const surviving: string[] = [];
  for (const state of parkable) {
    const now = after.states[state];
    if (!now) changes.push({ kind: "state-removed", states: [state], change: `the state ${state} was removed`, effect: EFFECTS["state-removed"] });
    else if (now.terminal) changes.push({ kind: "state-ends", states: [state], change: `the state ${state} now ends the run`, effect: EFFECTS["state-ends"] });
    else surviving.push(state);
  }
  const statesWaitingFor = (event: string) => surviving.filter((state) => eventsOfState(before, state).includes(event));
  for (const event of Object.keys(before.events).sort()) {
    const states = statesWaitingFor(event);
    if (states.length === 0) continue;
    const was = before.events[event]!;
    const is = after.events[event];
    if (!is) {
      changes.push({ kind: "event-removed", states, event, change: `the event ${event} was removed`, effect: EFFECTS["event-removed"] });
      continue;
    }
    for (const state of states) {
      const handled = before.states[state]?.handles?.includes(event) ?? false;
      const handles = after.states[state]?.handles?.includes(event) ?? false;
      if (handled && !handles) {
        changes.push({ kind: "handler-removed", states: [state], event, change: `the state ${state} no longer handles ${event}`, effect: EFFECTS["handler-removed"] });
      }
      // A person's answer that runs out of time reaches the handler as nothing (expired); a plain event's deadline needs its branch.
      const hadDeadline = before.states[state]?.waits?.[event]?.deadline ?? false;
      const hasDeadline = after.states[state]?.waits?.[event]?.deadline ?? false;
      if (hadDeadline && !hasDeadline && !(is.kind === "answer" && handles)) {
        changes.push({
          kind: "deadline-removed",
          states: [state],
          event,
          change: `the state ${state}'s wait for ${event} no longer has an \`unfinished\` branch`,
          effect: EFFECTS["deadline-removed"],
        });
      }
    }
    if (was.kind !== is.kind) {
      const words = (kind: EventDescription["kind"]) => (kind === "answer" ? "a person's answer (answerOf)" : "a plain payload");
      changes.push({ kind: "event-kind-changed", states, event, change: `the event ${event} took ${words(was.kind)} and now takes ${words(is.kind)}`, effect: EFFECTS["event-kind-changed"] });
      continue;
    }
    for (const narrowing of eventNarrowings(was, is)) {
      changes.push({
        kind: "schema-narrowed",
        states,
        event,
        ...(narrowing.field ? { field: narrowing.field } : {}),
        detail: narrowing.change,
        change: `${was.kind === "answer" ? "the answer to" : "the payload of"} ${event}${narrowing.field ? `: the field "${narrowing.field}"` : ""} ${narrowing.change}`,
        effect: narrowedEffect(was.kind),
      });
    }
  }
  return changes;
}

/**
 * The changes of {@link compareDefinitions} that break one run: those of the state it is in, and —
 * when its open waits are known — of the events they take.
 */
export function changesAffecting(changes: readonly DefinitionChange[], parked: ParkedAt): DefinitionChange[] {
  const events = parked.events?.length ? new Set(parked.events) : undefined;
  return changes.filter((change) => change.states.includes(parked.state) && (change.event === undefined || events === undefined || events.has(change.event)));
}

function eventNarrowings(before: EventDescription, after: EventDescription): Narrowing[] {
  // An ask that carried its own schema is judged by it, whatever the code says now; one asked with the code's schema has none to take.
  if (before.schema === "given") return [];
  if (after.schema === "given") return [{ field: "", change: "is now judged by a schema each ask carries, which questions already asked do not have" }];
  return schemaNarrowings(before.schema, after.schema);
}

/** Keywords that say how a value is shown or described, never whether it is taken. */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "examples",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "errorMessage",
  "multiline",
  "searchable",
  "id",
]);

/** Keywords this comparison reads; any other that differs is a change it cannot judge. */
const UNDERSTOOD = new Set([
  "type",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "properties",
  "required",
  "additionalProperties",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  REFINED_KEYWORD,
  UNREADABLE_KEYWORD,
]);

const isAnnotation = (keyword: string) => ANNOTATIONS.has(keyword) || (keyword.startsWith("x-") && !UNDERSTOOD.has(keyword));

/** A schema without its annotations (one level), for telling whether two judge alike. */
function judging(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([keyword]) => !isAnnotation(keyword)));
}

function sameJudge(a: unknown, b: unknown): boolean {
  return canonicalJson(stripAnnotations(a)) === canonicalJson(stripAnnotations(b));
}

function stripAnnotations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripAnnotations);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, item]) =>
      isAnnotation(key) ? [] : [[key, key === "properties" && item && typeof item === "object" ? Object.fromEntries(Object.entries(item).map(([name, property]) => [name, stripAnnotations(property)])) : stripAnnotations(item)]],
    ),
  );
}

const asSchema = (value: unknown): JsonSchema => (value && typeof value === "object" && !Array.isArray(value) ? (value as JsonSchema) : {});
const json = (value: unknown) => JSON.stringify(value);
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const shortPattern = (pattern: string) => (pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern);
const within = (field: string, name: string) => (field ? `${field}.${name}` : name);

/** The alternatives a schema takes: its `anyOf`/`oneOf` members, or one per type of a `type` list, or itself. */
function alternatives(schema: JsonSchema): JsonSchema[] {
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(union)) {
    const rest = Object.fromEntries(Object.entries(schema).filter(([keyword]) => keyword !== "anyOf" && keyword !== "oneOf"));
    return union.flatMap((member) => alternatives({ ...rest, ...asSchema(member) }));
  }
  if (Array.isArray(schema.type)) return (schema.type as unknown[]).map((type) => ({ ...schema, type }));
  return [schema];
}

/** The values a schema takes when it lists them (`enum`, `const`), else undefined. */
function listedValues(schema: JsonSchema): unknown[] | undefined {
  if (Object.hasOwn(schema, "const")) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum as unknown[];
  return undefined;
}

type JsonType = "string" | "number" | "integer" | "boolean" | "null" | "object" | "array";

function typeOfValue(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as JsonType;
}

/** The one type a single alternative takes, from its `type` or its listed values; undefined when it takes any. */
function typeOf(schema: JsonSchema): JsonType | undefined {
  if (typeof schema.type === "string") return schema.type as JsonType;
  const values = listedValues(schema);
  if (values && values.length > 0) {
    const types = new Set(values.map(typeOfValue));
    if (types.size === 1) return [...types][0];
  }
  return undefined;
}

const takesType = (taken: JsonType | undefined, type: JsonType) => taken === undefined || taken === type || (taken === "number" && type === "integer");

function typeWords(type: JsonType | undefined): string {
  switch (type) {
    case undefined:
      return "anything";
    case "integer":
      return "a whole number";
    case "null":
      return "empty (null)";
    case "object":
      return "a set of fields";
    case "array":
      return "a list";
    case "boolean":
      return "yes or no";
    default:
      return `a ${type}`;
  }
}

/**
 * How `after` refuses what `before` took, field by field, in words. Empty when `after` takes every value
 * `before` took, as far as these keywords tell: types, listed values, required fields, string and
 * number bounds, patterns and formats, lists, nested fields and alternatives. A keyword it does not
 * read, or a check in code added, is said to have changed what may be refused, never assumed harmless.
 */
export function schemaNarrowings(before: JsonSchema, after: JsonSchema, field = ""): Narrowing[] {
  if (sameJudge(before, after)) return [];
  const was = alternatives(before);
  const is = alternatives(after);
  if (was.length > 1 || is.length > 1) return unionNarrowings(was, is, field);
  return singleNarrowings(was[0]!, is[0]!, field);
}

function unionNarrowings(was: JsonSchema[], is: JsonSchema[], field: string): Narrowing[] {
  const out: Narrowing[] = [];
  const lost: unknown[] = [];
  for (const alternative of was) {
    if (is.some((candidate) => schemaNarrowings(alternative, candidate, field).length === 0)) continue;
    const values = listedValues(alternative);
    // A listed value another alternative still takes (a choice moved into an enum) is not lost.
    if (values) {
      const dropped = values.filter((value) => !is.some((candidate) => valueRefusals(value, candidate).length === 0));
      lost.push(...dropped);
      continue;
    }
    const type = typeOf(alternative);
    const sameType = is.filter((candidate) => typeOf(candidate) === type || (type !== undefined && takesType(typeOf(candidate), type)));
    if (sameType.length === 0) {
      out.push({ field, change: `no longer takes ${typeWords(type)}` });
      continue;
    }
    // The nearest alternative of its type: the one that refuses the least.
    const nearest = sameType.map((candidate) => singleNarrowings(alternative, candidate, field)).sort((a, b) => a.length - b.length)[0]!;
    out.push(...nearest);
  }
  if (lost.length > 0) out.unshift({ field, change: `no longer takes ${lost.map(json).join(", ")}` });
  return out;
}

/** Why `schema` refuses one value (as far as its simple keywords tell); empty when it takes it. */
function valueRefusals(value: unknown, schema: JsonSchema): string[] {
  const out: string[] = [];
  const alternativesOf = alternatives(schema);
  if (alternativesOf.length > 1) return alternativesOf.some((alternative) => valueRefusals(value, alternative).length === 0) ? [] : ["not taken"];
  const type = typeOf(schema);
  if (!takesType(type, typeOfValue(value))) return ["type"];
  const values = listedValues(schema);
  if (values && !values.some((listed) => canonicalJson(listed) === canonicalJson(value))) return ["not listed"];
  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && [...value].length < schema.minLength) out.push("minLength");
    if (typeof schema.maxLength === "number" && [...value].length > schema.maxLength) out.push("maxLength");
    if (typeof schema.pattern === "string") {
      try {
        if (!new RegExp(schema.pattern, "u").test(value)) out.push("pattern");
      } catch {
        out.push("pattern");
      }
    }
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) out.push("minimum");
    if (typeof schema.maximum === "number" && value > schema.maximum) out.push("maximum");
    if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) out.push("exclusiveMinimum");
    if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) out.push("exclusiveMaximum");
    if (typeof schema.multipleOf === "number" && !isMultiple(value, schema.multipleOf)) out.push("multipleOf");
  }
  return out;
}

function isMultiple(value: number, of: number): boolean {
  const quotient = value / of;
  return Math.abs(quotient - Math.round(quotient)) < 1e-9;
}

/** A lower or upper bound, with whether it is exclusive; undefined when there is none. */
type Bound = { value: number; exclusive: boolean };

function lowerBound(schema: JsonSchema): Bound | undefined {
  const inclusive = typeof schema.minimum === "number" ? schema.minimum : undefined;
  const exclusive = typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum : undefined;
  if (inclusive === undefined && exclusive === undefined) return undefined;
  if (exclusive !== undefined && (inclusive === undefined || exclusive >= inclusive)) return { value: exclusive, exclusive: true };
  return { value: inclusive!, exclusive: false };
}

function upperBound(schema: JsonSchema): Bound | undefined {
  const inclusive = typeof schema.maximum === "number" ? schema.maximum : undefined;
  const exclusive = typeof schema.exclusiveMaximum === "number" ? schema.exclusiveMaximum : undefined;
  if (inclusive === undefined && exclusive === undefined) return undefined;
  if (exclusive !== undefined && (inclusive === undefined || exclusive <= inclusive)) return { value: exclusive, exclusive: true };
  return { value: inclusive!, exclusive: false };
}

/** zod writes a whole number's safe range as its bounds; they bound nothing a person types. */
const unbounded = (bound: Bound | undefined) => bound === undefined || Math.abs(bound.value) >= Number.MAX_SAFE_INTEGER;

function tighterLower(was: Bound | undefined, is: Bound | undefined): boolean {
  if (unbounded(is)) return false;
  if (unbounded(was)) return true;
  return is!.value > was!.value || (is!.value === was!.value && is!.exclusive && !was!.exclusive);
}

function tighterUpper(was: Bound | undefined, is: Bound | undefined): boolean {
  if (unbounded(is)) return false;
  if (unbounded(was)) return true;
  return is!.value < was!.value || (is!.value === was!.value && is!.exclusive && !was!.exclusive);
}

const boundWords = (bound: Bound, lower: boolean) => `${lower ? (bound.exclusive ? "more than" : "at least") : bound.exclusive ? "less than" : "at most"} ${bound.value}`;

function singleNarrowings(before: JsonSchema, after: JsonSchema, field: string): Narrowing[] {
  if (sameJudge(before, after)) return [];
  // A schema that takes anything (its annotations aside) takes what `before` took.
  if (Object.keys(judging(after)).length === 0) return [];
  const out: Narrowing[] = [];
  const say = (change: string, at = field) => out.push({ field: at, change });

  // A type JSON Schema has no word for: equal markers are all it can compare.
  if (Object.hasOwn(before, UNREADABLE_KEYWORD) || Object.hasOwn(after, UNREADABLE_KEYWORD)) {
    say("changed in a way Parley cannot compare (a type JSON Schema cannot describe); it may refuse answers that were valid");
    return out;
  }

  const wasType = typeOf(before);
  const isType = typeOf(after);
  if (wasType !== undefined ? !takesType(isType, wasType) : isType !== undefined) {
    say(`was ${typeWords(wasType)} and is now ${typeWords(isType)}`);
    return out;
  }

  const wasValues = listedValues(before);
  const isValues = listedValues(after);
  if (wasValues) {
    const lost = wasValues.filter((value) => valueRefusals(value, after).length > 0);
    if (lost.length > 0) say(`no longer takes ${lost.map(json).join(", ")}`);
    return out;
  }
  if (isValues) {
    say(`now takes only ${isValues.map(json).join(", ")}`);
    return out;
  }

  const type = wasType ?? isType;
  if (type === "string") {
    const wasMin = typeof before.minLength === "number" ? before.minLength : 0;
    if (typeof after.minLength === "number" && after.minLength > wasMin) say(`must now be at least ${count(after.minLength, "character")} long`);
    if (typeof after.maxLength === "number" && (typeof before.maxLength !== "number" || after.maxLength < before.maxLength)) say(`must now be at most ${count(after.maxLength, "character")} long`);
    const newFormat = typeof after.format === "string" && after.format !== before.format;
    // A format comes with its own pattern (zod writes both): the format says it.
    if (typeof after.pattern === "string" && after.pattern !== before.pattern && !newFormat) {
      say(typeof before.pattern === "string" ? `must now match the pattern ${shortPattern(after.pattern)} (was ${shortPattern(before.pattern)})` : `must now match the pattern ${shortPattern(after.pattern)}`);
    }
    if (newFormat) say(`must now be in the format ${String(after.format)}`);
  }
  if (type === "number" || type === "integer") {
    const [wasLow, isLow] = [lowerBound(before), lowerBound(after)];
    const [wasHigh, isHigh] = [upperBound(before), upperBound(after)];
    if (tighterLower(wasLow, isLow)) say(`must now be ${boundWords(isLow!, true)}${wasLow && !unbounded(wasLow) ? ` (was ${boundWords(wasLow, true)})` : ""}`);
    if (tighterUpper(wasHigh, isHigh)) say(`must now be ${boundWords(isHigh!, false)}${wasHigh && !unbounded(wasHigh) ? ` (was ${boundWords(wasHigh, false)})` : ""}`);
    if (typeof after.multipleOf === "number" && !(typeof before.multipleOf === "number" && isMultiple(before.multipleOf, after.multipleOf))) {
      say(`must now be a multiple of ${after.multipleOf}`);
    }
  }
  if (type === "array") {
    const wasMin = typeof before.minItems === "number" ? before.minItems : 0;
    if (typeof after.minItems === "number" && after.minItems > wasMin) say(`must now list at least ${count(after.minItems, "item")}`);
    if (typeof after.maxItems === "number" && (typeof before.maxItems !== "number" || after.maxItems < before.maxItems)) say(`must now list at most ${count(after.maxItems, "item")}`);
    if (after.uniqueItems === true && before.uniqueItems !== true) say("must now list each item once");
    if (after.items !== undefined) out.push(...schemaNarrowings(asSchema(before.items), asSchema(after.items), `${field}[]`));
  }
  if (type === "object" || (type === undefined && (before.properties || after.properties))) out.push(...objectNarrowings(before, after, field));

  // A check in code added where there was none: Parley cannot read it.
  if (after[REFINED_KEYWORD] === true && before[REFINED_KEYWORD] !== true) say("has a new check in code that Parley cannot read; it may refuse answers that were valid");

  // Any other keyword that differs: changed, and not judged harmless.
  const read = new Set(UNDERSTOOD);
  const unknown = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (keyword) => !read.has(keyword) && !isAnnotation(keyword) && canonicalJson(before[keyword]) !== canonicalJson(after[keyword]),
  );
  if (unknown.length > 0) say(`changed in a way Parley cannot compare (${unknown.join(", ")}); it may refuse answers that were valid`);
  return out;
}

function objectNarrowings(before: JsonSchema, after: JsonSchema, field: string): Narrowing[] {
  const out: Narrowing[] = [];
  const wasProperties = asSchema(before.properties);
  const isProperties = asSchema(after.properties);
  const wasRequired = new Set(Array.isArray(before.required) ? (before.required as string[]) : []);
  const isRequired = Array.isArray(after.required) ? (after.required as string[]) : [];
  for (const name of isRequired) {
    if (wasRequired.has(name)) continue;
    out.push(
      Object.hasOwn(wasProperties, name)
        ? { field: within(field, name), change: "is now required" }
        : { field: within(field, name), change: "is new and required: questions already asked do not ask for it" },
    );
  }
  for (const name of Object.keys(wasProperties).sort()) {
    if (!Object.hasOwn(isProperties, name)) {
      out.push({ field: within(field, name), change: "was removed: questions already asked still ask for it, and an answer that gives it may be refused" });
      continue;
    }
    out.push(...schemaNarrowings(asSchema(wasProperties[name]), asSchema(isProperties[name]), within(field, name)));
  }
  // Fields the schema does not name: refused now where they were taken.
  const wasOthers = before.additionalProperties;
  if (after.additionalProperties === false && wasOthers !== undefined && wasOthers !== false) out.push({ field, change: "now refuses fields it does not name" });
  return out;
}
