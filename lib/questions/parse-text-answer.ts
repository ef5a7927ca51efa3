import type { ListItemKind, OptionValue, QuestionField, QuestionOption } from "./question-spec";

/** What a person types to take a field's default. */
export const DEFAULT_ANSWER = "-";

/** What a person types (any case) to answer "none" to a nullable field. */
export const NONE_ANSWER = "none";

/** An example date shown beside date questions, in the only form they are read in. */
export const DATE_EXAMPLE = "2025-03-14";

/**
 * Typed text read as a field's value: `{ ok: true, value }` (where `undefined` means *missing*, left
 * for the schema to default, skip or refuse) or `{ ok: false, message }` when the text cannot be
 * read as that kind at all — a plain message for the person, never a zod error about `NaN`.
 */
export type ParsedAnswer = { ok: true; value: unknown } | { ok: false; message: string };

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const YES = new Set(["y", "yes", "true"]);
const NO = new Set(["n", "no", "false"]);

/**
 * Read what a person typed for one field — the one parser behind every surface (browser, terminal,
 * answers file):
 *
 * - empty or whitespace is *missing* (`undefined`), never `""` and never `0` — except that a
 *   required list (no default, not optional) left empty is the empty list, so that its own
 *   `.min(1, "…")` message is what the person reads, as a browser's unticked checkbox group gives;
 * - `-` takes the default: it gives `undefined`, because zod 4 applies a default only to
 *   `undefined` (on a field with no default, `-` is ordinary text, and refused for other kinds);
 * - `none` (any case) is `null` on a nullable field — an answer, unlike skipping;
 * - booleans: y, yes, true / n, no, false, any case;
 * - options: by their 1-based number or their word (value or label), any case; a value typed
 *   exactly wins over a position; on a text question the options are suggestions (an agent's
 *   ask): a number or an option's word picks it, and any other text is the person's own answer;
 * - lists: one line split on commas, trimmed, empties dropped (choices also deduplicated);
 * - numbers: digits only (no `""`→0, no hex, no thousands separators);
 * - dates: ISO `YYYY-MM-DD`, a real calendar day (`Date`s are made at UTC midnight).
 */
export function parseTextAnswer(field: QuestionField, text: string | null | undefined): ParsedAnswer {
  const trimmed = (text ?? "").trim();
  if (trimmed === "") return isRequiredList(field) ? { ok: true, value: [] } : missing();
  if (trimmed === DEFAULT_ANSWER) {
    if (field.hasDefault) return missing();
    if (!isFreeText(field)) return refuse("There is no default for this question; please type an answer.");
  }
  if (field.nullable && trimmed.toLowerCase() === NONE_ANSWER && !hasOptionWord(field, trimmed)) return { ok: true, value: null };
  switch (field.kind) {
    case "text":
      return { ok: true, value: suggestedOption(field, trimmed) ?? trimmed };
    case "number":
    case "integer":
      return parseNumber(trimmed, field.kind);
    case "boolean":
      return parseBoolean(trimmed);
    case "date":
      return parseDate(trimmed, field.dateValue ?? "string");
    case "enum": {
      const chosen = matchOption(field.options ?? [], trimmed);
      return chosen.ok ? { ok: true, value: chosen.option.value } : chosen;
    }
    case "multi-choice":
      return parseChoices(field, trimmed);
    case "list":
      return parseList(field, trimmed);
    default:
      // A spec read back from storage may come from another version of this code.
      return refuse("This question cannot be answered here.");
  }
}

/**
 * The option a text question's suggestions offer that `text` names — by its number or its word,
 * any case — or undefined when it names none (the text is then the answer itself).
 */
function suggestedOption(field: QuestionField, text: string): OptionValue | undefined {
  const options = field.options ?? [];
  if (options.length === 0) return undefined;
  const chosen = matchOption(options, text);
  return chosen.ok ? chosen.option.value : undefined;
}

/** A line with no items: the empty list for a required list, else missing. */
function empty(field: QuestionField): ParsedAnswer {
  return isRequiredList(field) ? { ok: true, value: [] } : missing();
}

function missing(): ParsedAnswer {
  return { ok: true, value: undefined };
}

function refuse(message: string): ParsedAnswer {
  return { ok: false, message };
}

function isRequiredList(field: QuestionField): boolean {
  return (field.kind === "list" || field.kind === "multi-choice") && !field.optional && !field.hasDefault;
}

function isFreeText(field: QuestionField): boolean {
  return field.kind === "text" || (field.kind === "list" && (field.itemKind ?? "text") === "text");
}

function hasOptionWord(field: QuestionField, word: string): boolean {
  const lowered = word.toLowerCase();
  return (field.options ?? []).some((option) => String(option.value).toLowerCase() === lowered || option.label.toLowerCase() === lowered);
}

/** Split a comma-separated line: items trimmed, empty items dropped. */
export function splitList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function parseNumber(text: string, kind: "number" | "integer"): ParsedAnswer {
  const example = kind === "integer" ? "like 12" : "like 12 or 3.5";
  if (!NUMBER.test(text)) return refuse(`${quoted(text)} is not a number. Type digits, ${example}.`);
  const value = Number(text);
  if (!Number.isFinite(value)) return refuse(`${quoted(text)} is too large a number.`);
  return { ok: true, value };
}

function parseBoolean(text: string): ParsedAnswer {
  const lowered = text.toLowerCase();
  if (YES.has(lowered)) return { ok: true, value: true };
  if (NO.has(lowered)) return { ok: true, value: false };
  return refuse(`${quoted(text)} is not yes or no. Type y or n.`);
}

function parseDate(text: string, as: "string" | "date"): ParsedAnswer {
  const date = readIsoDate(text);
  if (date === undefined) return refuse(`${quoted(text)} is not a date. Type it as YYYY-MM-DD, for example ${DATE_EXAMPLE}.`);
  // There was no year 0, and no database stores one: a date that reads but cannot be kept is refused here.
  if (date.getUTCFullYear() < 1) return refuse(`${quoted(text)} is before the year 1. Check the year, for example ${DATE_EXAMPLE}.`);
  return { ok: true, value: as === "date" ? date : text };
}

/** Text as a refusal quotes it: long text shortened, so a refusal never repeats a whole pasted page. */
function quoted(text: string): string {
  return text.length > QUOTED_LENGTH ? `"${text.slice(0, QUOTED_LENGTH)}…"` : `"${text}"`;
}

const QUOTED_LENGTH = 40;

/** The UTC-midnight `Date` of an ISO `YYYY-MM-DD` day, or `undefined` when it is not a real day. */
function readIsoDate(text: string): Date | undefined {
  const match = ISO_DATE.exec(text);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  const roundTrips = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return roundTrips ? date : undefined;
}

type OptionMatch = { ok: true; option: QuestionOption } | { ok: false; message: string };

/** Find the option a person meant: its value exactly, else its value or label in any case, else its number. */
export function matchOption(options: readonly QuestionOption[], text: string): OptionMatch {
  const exact = options.find((option) => String(option.value) === text);
  if (exact !== undefined) return { ok: true, option: exact };
  const lowered = text.toLowerCase();
  const byWord = options.filter((option) => String(option.value).toLowerCase() === lowered || option.label.toLowerCase() === lowered);
  const distinct = new Set(byWord.map((option) => option.value));
  if (distinct.size === 1 && byWord[0] !== undefined) return { ok: true, option: byWord[0] };
  if (distinct.size > 1) {
    return { ok: false, message: `${quoted(text)} could mean more than one choice; type its number instead (${numbered(options)}).` };
  }
  if (/^\d+$/.test(text)) {
    const position = Number(text);
    const option = options[position - 1];
    if (option !== undefined && position >= 1) return { ok: true, option };
  }
  return { ok: false, message: `${quoted(text)} is not one of the choices. Type its number or its word: ${numbered(options)}.` };
}

function numbered(options: readonly QuestionOption[]): string {
  return options.map((option, index) => `${index + 1}) ${option.label}`).join(", ");
}

function parseChoices(field: QuestionField, text: string): ParsedAnswer {
  const options = field.options ?? [];
  const chosen: OptionValue[] = [];
  for (const item of splitList(text)) {
    const match = matchOption(options, item);
    if (!match.ok) return match;
    if (!chosen.includes(match.option.value)) chosen.push(match.option.value);
  }
  return chosen.length === 0 ? empty(field) : { ok: true, value: chosen };
}

function parseList(field: QuestionField, text: string): ParsedAnswer {
  const itemKind: ListItemKind = field.itemKind ?? "text";
  const dateValue = field.dateValue ?? "string";
  const items = splitList(text);
  if (items.length === 0) return empty(field);
  const values: unknown[] = [];
  for (const [index, item] of items.entries()) {
    const parsed = itemKind === "text" ? { ok: true as const, value: item } : itemKind === "date" ? parseDate(item, dateValue) : parseNumber(item, itemKind);
    if (!parsed.ok) return refuse(`Item ${index + 1}: ${parsed.message}`);
    values.push(parsed.value);
  }
  return { ok: true, value: values };
}
