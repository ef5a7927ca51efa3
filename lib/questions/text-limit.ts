import type { QuestionField, QuestionSpec } from "./question-spec";

/**
 * The most characters a free-text answer may have when its schema sets no limit of its own: enough for
 * any explanation a person types, and a bound on what one answer adds to pages, events and memory.
 */
export const DEFAULT_TEXT_LIMIT = 10_000;

/** The most characters a person may type for `field`: its schema's own `max`, else {@link DEFAULT_TEXT_LIMIT}. */
export function textLimit(field: Pick<QuestionField, "hints">): number {
  return field.hints.maxLength ?? DEFAULT_TEXT_LIMIT;
}

/** The longest text a schema may allow and still be asked in a one-line box (a name, a title, a code, a short reply). */
export const ONE_LINE_TEXT_MAX = 200;

/**
 * Whether a free-text question is asked in a box of several lines. The schema says so where it can
 * (`.meta({ multiline })`, JSON Schema's `"multiline"`: an amount or a reference checked by a refinement
 * is one line); otherwise it is one whose schema leaves room for an explanation. A short `max` (at most
 * {@link ONE_LINE_TEXT_MAX}), a named format (email, url…), a pattern, or a default of one word (a code
 * like `EUR`: the kind of answer expected) keeps it to one line. The terminal asks every question on one
 * line either way.
 */
export function asksForLongText(field: Pick<QuestionField, "kind" | "hints" | "hasDefault" | "default">): boolean {
  if (field.kind !== "text") return false;
  const { maxLength, format, pattern, multiline } = field.hints;
  if (multiline !== undefined) return multiline;
  if (format !== undefined || pattern !== undefined || (maxLength !== undefined && maxLength <= ONE_LINE_TEXT_MAX)) return false;
  return !(field.hasDefault && typeof field.default === "string" && field.default.length <= ONE_LINE_TEXT_MAX && !/\s/.test(field.default.trim()));
}

/** The refusal of a text over `limit` characters, in the person's terms. */
export function overlongTextMessage(limit: number, length: number): string {
  return `Keep this answer to ${limit.toLocaleString("en-US")} characters or fewer; it has ${length.toLocaleString("en-US")}.`;
}

/**
 * The free texts in `raw` that run past {@link DEFAULT_TEXT_LIMIT} on fields whose schema sets no limit
 * (a schema's own `max` is judged by the schema, in its own words), by field path: a text answer, or
 * any item of a list of texts. Whatever surface the answer came from (a form, a terminal, JSON over
 * HTTP), this is where a text without a limit gets one.
 */
export function overlongTexts(spec: Pick<QuestionSpec, "fields">, raw: unknown): Record<string, string[]> {
  const refused: Record<string, string[]> = {};
  for (const field of spec.fields) {
    if (field.hints.maxLength !== undefined) continue;
    const value = valueAt(raw, field.path);
    const texts = typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
    const longest = texts.reduce((most, text) => Math.max(most, text.length), 0);
    if (longest > DEFAULT_TEXT_LIMIT) refused[field.path] = [overlongTextMessage(DEFAULT_TEXT_LIMIT, longest)];
  }
  return refused;
}

/** The value at a dotted field path (`""` is the whole answer). */
function valueAt(raw: unknown, path: string): unknown {
  if (path === "") return raw;
  let node = raw;
  for (const segment of path.split(".")) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
