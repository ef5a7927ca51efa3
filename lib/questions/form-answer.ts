import { type ParsedAnswer, parseTextAnswer } from "./parse-text-answer";
import type { QuestionField, QuestionSpec } from "./question-spec";
import { answeredBySwitch, buildRawAnswer, type RawAnswer } from "./raw-answer";

/**
 * What a browser form posts, by input name (each input is named after its field's path):
 * `FormData`, `URLSearchParams`, or a plain record where a repeated input may be one string or many.
 */
export type FormAnswer = FormData | URLSearchParams | Readonly<Record<string, string | readonly string[] | null | undefined>>;

/** The value a checkbox sends when ticked and given no `value` attribute. */
const CHECKBOX_ON = "on";

/**
 * Read one field from the strings a browser form sent for it, through the same parser as typed
 * text, with the browser's own habits accounted for:
 *
 * - a yes/no switch that is off sends nothing: absent is `false` (on sends `on`); a yes/no asked
 *   as two choices ({@link answeredBySwitch}) with neither chosen is missing;
 * - a checkbox group sends one string per ticked box — one ticked box is still a list — and
 *   nothing when none is ticked, which is the empty choice `[]`;
 * - a cleared input sends `""`, which is missing, so the schema applies its default.
 */
export function parseFormAnswer(field: QuestionField, entries: readonly string[]): ParsedAnswer {
  if (field.kind === "boolean") {
    const last = entries.findLast((entry) => entry.trim() !== "");
    if (last === undefined) return answeredBySwitch(field) ? { ok: true, value: false } : parseTextAnswer(field, undefined);
    return last.trim().toLowerCase() === CHECKBOX_ON ? { ok: true, value: true } : parseTextAnswer(field, last);
  }
  if (field.kind === "multi-choice") {
    const chosen: unknown[] = [];
    for (const entry of entries) {
      const parsed = parseTextAnswer(field, entry);
      if (!parsed.ok) return parsed;
      if (parsed.value === null) return parsed;
      for (const value of Array.isArray(parsed.value) ? parsed.value : []) if (!chosen.includes(value)) chosen.push(value);
    }
    return { ok: true, value: chosen };
  }
  // A text question's suggestions post their own words, and the box posts the person's exactly as
  // typed: a "2" typed there is the person's answer, not the second suggestion.
  if (field.kind === "text" && field.options !== undefined) return parseTextAnswer({ ...field, options: undefined }, entries.at(-1));
  // A single input posts one value; should a page post it twice, the last one is what was seen.
  return parseTextAnswer(field, entries.at(-1));
}

/** The raw answer object from a posted browser form, every field read by {@link parseFormAnswer}. */
export function rawFromFormAnswer(spec: QuestionSpec, form: FormAnswer): RawAnswer {
  return buildRawAnswer(spec, (field) => parseFormAnswer(field, entriesOf(form, field.path)));
}

/** The strings a form sent under `name`, whichever shape the form came in (none when absent). */
export function entriesOf(form: FormAnswer, name: string): string[] {
  if (form instanceof URLSearchParams) return form.getAll(name);
  if (typeof FormData !== "undefined" && form instanceof FormData) {
    return form.getAll(name).filter((entry): entry is string => typeof entry === "string");
  }
  const record = form as Readonly<Record<string, string | readonly string[] | null | undefined>>;
  if (!Object.hasOwn(record, name)) return [];
  const entry = record[name];
  if (entry === undefined || entry === null) return [];
  return typeof entry === "string" ? [entry] : [...entry];
}
