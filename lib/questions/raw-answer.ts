import { type ParsedAnswer, parseTextAnswer } from "./parse-text-answer";
import type { QuestionField, QuestionSpec } from "./question-spec";

/**
 * The answer as built from what was typed, before the schema judges it: `raw` is the nested object
 * to hand to the schema (`z.input` of it, ideally), with missing fields left out; `parseErrors`
 * holds, by field path, the plain messages for text that could not be read at all (those fields
 * are left out of `raw` too).
 */
export interface RawAnswer {
  raw: Record<string, unknown>;
  parseErrors: Record<string, string[]>;
}

/**
 * Build the raw answer object for a spec, reading each field with `read` (the shared per-field
 * parser, fed from whichever surface). Nested fields land at their dotted path; an optional nested
 * object whose fields were all left empty is left out, so the schema can skip or default it.
 */
export function buildRawAnswer(spec: QuestionSpec, read: (field: QuestionField) => ParsedAnswer): RawAnswer {
  const raw: Record<string, unknown> = {};
  const parseErrors: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const group of spec.groups) setAt(raw, group.path.split("."), {});
  for (const field of spec.fields) {
    const parsed = read(field);
    // A missing field is left out altogether, so it is also left out of the value.
    if (parsed.ok && parsed.value !== undefined) setAt(raw, field.path.split("."), parsed.value);
    if (!parsed.ok) parseErrors[field.path] = [parsed.message];
  }
  // Deepest first, so an optional group inside an optional group can empty its parent.
  const optionalGroups = spec.groups.filter((group) => group.optional).sort((a, b) => depth(b.path) - depth(a.path));
  for (const group of optionalGroups) {
    const segments = group.path.split(".");
    if (isEmpty(getAt(raw, segments))) removeAt(raw, segments);
  }
  return { raw, parseErrors };
}

/**
 * The raw answer from text typed per field (a terminal session, an answers file of strings), keyed
 * by field path. A path that is absent is a field left empty.
 */
export function rawFromTextAnswers(spec: QuestionSpec, answers: Readonly<Record<string, string | null | undefined>>): RawAnswer {
  return buildRawAnswer(spec, (field) => parseTextAnswer(field, Object.hasOwn(answers, field.path) ? answers[field.path] : undefined));
}

/**
 * Whether nothing at all was answered: every question that takes typed text or a choice was left
 * empty (a yes/no switch cannot be left empty — off is an answer — so it does not count). Such a
 * submission is a slip (an empty "Send", an Enter too early), not an attempt at an answer.
 */
/**
 * Whether a yes/no question is asked with one switch, where off is an answer (no): one that may be
 * skipped or has a default. A required one without a default is two choices, Yes and No, that start
 * unanswered — a person must say which — and a nullable one adds None.
 */
export function answeredBySwitch(field: QuestionField): boolean {
  return field.kind === "boolean" && !field.nullable && (field.optional || field.hasDefault);
}

export function isEmptyAnswer(spec: QuestionSpec, raw: RawAnswer): boolean {
  if (Object.keys(raw.parseErrors).length > 0) return false;
  return spec.fields.every((field) => {
    // A switch is never empty (off is no); a yes/no asked as two choices is, until one is chosen.
    if (answeredBySwitch(field)) return true;
    const value = getAt(raw.raw, field.path.split("."));
    return value === undefined || (Array.isArray(value) && value.length === 0);
  });
}

function depth(path: string): number {
  return path.split(".").length;
}

function setAt(target: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    if (typeof next !== "object" || next === null) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  const last = segments[segments.length - 1];
  if (last !== undefined) node[last] = value;
}

function removeAt(target: Record<string, unknown>, segments: readonly string[]): void {
  const parent = getAt(target, segments.slice(0, -1));
  const last = segments[segments.length - 1];
  if (typeof parent === "object" && parent !== null && last !== undefined) delete (parent as Record<string, unknown>)[last];
}

function getAt(target: Record<string, unknown>, segments: readonly string[]): unknown {
  let node: unknown = target;
  for (const segment of segments) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.values(value).every(isEmpty);
}
