import { answeredBySwitch, formatAnswerText, type OptionValue, type QuestionField, type QuestionOption, type QuestionSpec, splitList } from "@/lib/questions";

/** What a ticked checkbox without a `value` attribute posts, and what `parseFormAnswer` reads as true. */
export const TICKED = "on";

/** What the explicit "None" choice of a nullable field posts; `parseTextAnswer` reads it as `null`. */
export const NONE_VALUE = "none";

const YES_WORDS = new Set(["on", "y", "yes", "true"]);

/** The entries a field starts with when nothing was submitted: its default, written as the form posts it. */
export function defaultEntries(field: QuestionField): string[] {
  if (!field.hasDefault || field.default === undefined) return [];
  const value = field.default;
  if (value === null) return [NONE_VALUE];
  if (field.kind === "multi-choice" && Array.isArray(value)) return value.map((item) => String(item));
  if (field.kind === "boolean") return value === true ? [answeredBySwitch(field) ? TICKED : "yes"] : answeredBySwitch(field) ? [] : ["no"];
  return [formatAnswerText(field, value)];
}

/** The entry a single input posted last — the one the server reads. */
export function lastEntry(entries: readonly string[]): string {
  return entries.at(-1) ?? "";
}

/** Whether an entry is the "None" answer of a nullable field. */
export function isNoneEntry(field: QuestionField, entry: string): boolean {
  return field.nullable && entry.trim().toLowerCase() === NONE_VALUE;
}

/** Whether a boolean's entries say yes (a ticked box, or a returned `yes`). */
export function isYes(entries: readonly string[]): boolean {
  const last = entries.findLast((entry) => entry.trim() !== "");
  return last !== undefined && YES_WORDS.has(last.trim().toLowerCase());
}

/** The option an entry stands for: its value exactly, as the form posts it. */
export function optionFor(options: readonly QuestionOption[], entry: string): QuestionOption | undefined {
  return options.find((option) => String(option.value) === entry.trim());
}

/** The option values ticked in a checkbox group's entries (posted one per box, or one comma line). */
export function tickedValues(field: QuestionField, entries: readonly string[]): Set<string> {
  const words = new Set(entries.flatMap((entry) => [entry.trim(), ...splitList(entry)]));
  const ticked = new Set<string>();
  for (const option of field.options ?? []) if (words.has(String(option.value))) ticked.add(String(option.value));
  return ticked;
}

/** The default as a person reads it: option labels rather than values, yes/no, None. */
export function defaultText(field: QuestionField): string | undefined {
  if (!field.hasDefault || field.default === undefined) return undefined;
  const value = field.default;
  if (value === null) return "None";
  const labelOf = (item: OptionValue) => (field.options ?? []).find((option) => option.value === item)?.label ?? String(item);
  if ((field.kind === "enum" || field.kind === "multi-choice") && field.options !== undefined) {
    const items = Array.isArray(value) ? value : [value];
    return items.map((item) => (typeof item === "object" && item !== null ? JSON.stringify(item) : labelOf(item as OptionValue))).join(", ");
  }
  return formatAnswerText(field, value);
}

/** The fixed hints shown under a question: its limits and its default, in words. */
export function hintText(field: QuestionField): string | undefined {
  const parts: string[] = [];
  const { hints } = field;
  switch (field.kind) {
    case "text": {
      // A least of one character says no more than "not empty", which a required question already says.
      const least = hints.minLength !== undefined && hints.minLength > 1 ? hints.minLength : undefined;
      parts.push(...countText(least, hints.maxLength, "character", "characters"));
      break;
    }
    case "number":
    case "integer":
      if (field.kind === "integer" || hints.step === 1) parts.push("a whole number");
      else if (hints.step !== undefined) parts.push(`in steps of ${hints.step}`);
      parts.push(...rangeText(hints.min, hints.max, hints.minExclusive, hints.maxExclusive));
      break;
    case "date":
      // The picker shows dates in the person's own format: the limits are said as days, never as YYYY-MM-DD.
      parts.push(...rangeText(dayWords(hints.min), dayWords(hints.max), hints.minExclusive, hints.maxExclusive));
      break;
    case "list":
      // Said once: not when the question says it already ("… (comma-separated)").
      if (!/comma/i.test(field.question)) parts.push("separate with commas");
      parts.push(...countText(hints.minItems, hints.maxItems, "item", "items"));
      break;
    case "multi-choice":
      parts.push(...countText(hints.minItems, hints.maxItems, "choice", "choices"));
      break;
    default:
      break;
  }
  const fallback = defaultText(field);
  // An empty default (a list that starts empty, a blank text) is what leaving it empty gives: nothing to say.
  if (fallback !== undefined && fallback.trim() !== "") parts.push(`default: ${fallback}`);
  return parts.length > 0 ? parts.join(" · ") : undefined;
}

/** A `YYYY-MM-DD` limit as a day people read whatever their date format: "5 Dec 2026". */
function dayWords(day: number | string | undefined): number | string | undefined {
  if (typeof day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return day;
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

function rangeText(min: number | string | undefined, max: number | string | undefined, minExclusive?: boolean, maxExclusive?: boolean): string[] {
  if (min !== undefined && max !== undefined && !minExclusive && !maxExclusive) return [`${min}–${max}`];
  const parts: string[] = [];
  if (min !== undefined) parts.push(minExclusive ? `more than ${min}` : `at least ${min}`);
  if (max !== undefined) parts.push(maxExclusive ? `less than ${max}` : `at most ${max}`);
  return parts;
}

function countText(min: number | undefined, max: number | undefined, one: string, many: string): string[] {
  if (min !== undefined && max !== undefined) return [min === max ? `exactly ${min} ${min === 1 ? one : many}` : `${min}–${max} ${many}`];
  if (min !== undefined && min > 0) return [`at least ${min} ${min === 1 ? one : many}`];
  if (max !== undefined) return [`at most ${max} ${max === 1 ? one : many}`];
  return [];
}

/** The paths of the optional groups (and every group inside one): a required field there may be left out with its group. */
export function optionalGroupPaths(spec: QuestionSpec): Set<string> {
  const byPath = new Map(spec.groups.map((group) => [group.path, group]));
  const optional = new Set<string>();
  for (const group of spec.groups) {
    for (let current: typeof group | undefined = group; current !== undefined; current = current.group === undefined ? undefined : byPath.get(current.group)) {
      if (current.optional) {
        optional.add(group.path);
        break;
      }
    }
  }
  return optional;
}
