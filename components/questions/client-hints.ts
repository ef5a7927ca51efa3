import { z } from "zod";

import { DEFAULT_TEXT_LIMIT, overlongTextMessage, parseFormAnswer, type QuestionField, type QuestionSpec } from "@/lib/questions";

import { optionalGroupPaths } from "./field-entries";

/**
 * Shown while text does not match the schema's pattern. The schema words its own refusal (which the
 * spec does not carry), so this hint never stops a submission: the server's words are better.
 */
export const PATTERN_HINT = "This is not in the expected form.";

/** Shown when a question that needs an answer is left empty; the server's own words come on submit. */
export const NEEDS_ANSWER_HINT = "This question needs an answer.";

/**
 * The lenient schema behind the browser's instant hints: each field's input read by the same parser
 * the server uses, then checked against the spec's hints. It is never the judge — the form submits
 * whatever these hints say — so it only points out what the server would certainly refuse.
 */
export function clientHintSchema(spec: QuestionSpec): z.ZodType {
  const mayBeLeftOut = optionalGroupPaths(spec);
  const root: Tree = new Map();
  for (const field of spec.fields) {
    const leftOut = field.group !== undefined && mayBeLeftOut.has(field.group);
    const leaf = z.unknown().superRefine((value, context) => {
      const hint = hintFor(field, entriesOf(value), { requireAnswer: !leftOut && needsTypedAnswer(field) });
      if (hint !== undefined) context.addIssue({ code: "custom", message: hint });
    });
    place(root, field.path.split("."), leaf);
  }
  return toSchema(root);
}

type Tree = Map<string, Tree | z.ZodType>;

function place(tree: Tree, segments: readonly string[], leaf: z.ZodType): void {
  const [head, ...rest] = segments;
  if (head === undefined) return;
  if (rest.length === 0) {
    tree.set(head, leaf);
    return;
  }
  let child = tree.get(head);
  if (!(child instanceof Map)) {
    child = new Map();
    tree.set(head, child);
  }
  place(child, rest, leaf);
}

function toSchema(tree: Tree): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, child] of tree) shape[name] = child instanceof Map ? toSchema(child) : child;
  // Missing objects (a group rhf has not seen yet) are not the hints' business.
  return z.looseObject(shape).optional();
}

/** What react-hook-form holds for an input, as the strings a browser would post. */
export function entriesOf(value: unknown): string[] {
  if (value === undefined || value === null || value === false) return [];
  if (value === true) return ["on"];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return typeof value === "string" ? [value] : [];
}

/**
 * Fields whose one registered input is the whole answer, so an empty input means no answer.
 * A nullable field has a separate "None" choice, a yes/no switch is never missing (a required yes/no
 * without a default is two choices, and needs one), a list or checkbox
 * group left empty is the empty list (which the schema may accept), and an agent's suggestions
 * sit beside the free-text box.
 */
function needsTypedAnswer(field: QuestionField): boolean {
  if (field.optional || field.hasDefault || field.nullable) return false;
  if (field.kind === "text") return (field.options ?? []).length === 0;
  return field.kind === "number" || field.kind === "integer" || field.kind === "date" || field.kind === "enum" || field.kind === "boolean";
}

/** The one hint for a field's current entries, or `undefined` when nothing is certainly wrong. */
export function hintFor(field: QuestionField, entries: readonly string[], options: { requireAnswer: boolean }): string | undefined {
  const parsed = parseFormAnswer(field, entries);
  if (!parsed.ok) return parsed.message;
  const value = parsed.value;
  if (value === undefined) return options.requireAnswer ? NEEDS_ANSWER_HINT : undefined;
  if (value === null) return undefined;
  const { hints } = field;
  if (typeof value === "string" && field.kind === "text") {
    if (hints.minLength !== undefined && value.length < hints.minLength) return `At least ${hints.minLength} characters.`;
    if (hints.maxLength !== undefined && value.length > hints.maxLength) return `At most ${hints.maxLength} characters.`;
    // Said as the server will say it, not enforced by `maxlength`, which would cut a pasted text short without a word.
    if (hints.maxLength === undefined && value.length > DEFAULT_TEXT_LIMIT) return overlongTextMessage(DEFAULT_TEXT_LIMIT, value.length);
    if (hints.pattern !== undefined && !matches(hints.pattern, value)) return PATTERN_HINT;
  }
  if (typeof value === "number") {
    if ((field.kind === "integer" || hints.step === 1) && !Number.isInteger(value)) return "A whole number, please.";
    return outOfRange(value, hints.min, hints.max, hints.minExclusive, hints.maxExclusive);
  }
  if (field.kind === "date") {
    const day = value instanceof Date ? value.toISOString().slice(0, 10) : typeof value === "string" ? value : undefined;
    if (day !== undefined) return outOfRange(day, hints.min, hints.max, hints.minExclusive, hints.maxExclusive);
  }
  if (Array.isArray(value)) {
    if (hints.minItems !== undefined && value.length < hints.minItems) return `At least ${hints.minItems}, please.`;
    if (hints.maxItems !== undefined && value.length > hints.maxItems) return `At most ${hints.maxItems}, please.`;
  }
  return undefined;
}

function outOfRange<T extends number | string>(value: T, min: unknown, max: unknown, minExclusive?: boolean, maxExclusive?: boolean): string | undefined {
  if (typeof min === typeof value && min !== undefined) {
    const low = min as T;
    if (minExclusive ? value <= low : value < low) return minExclusive ? `More than ${low}, please.` : `At least ${low}, please.`;
  }
  if (typeof max === typeof value && max !== undefined) {
    const high = max as T;
    if (maxExclusive ? value >= high : value > high) return maxExclusive ? `Less than ${high}, please.` : `At most ${high}, please.`;
  }
  return undefined;
}

function matches(pattern: string, text: string): boolean {
  try {
    // Unanchored and flagless, as zod's .regex() tests the (trimmed) text.
    return new RegExp(pattern).test(text);
  } catch {
    return true;
  }
}
