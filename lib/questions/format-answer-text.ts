import { NONE_ANSWER } from "./parse-text-answer";
import type { QuestionField } from "./question-spec";

/**
 * A value written as the text `parseTextAnswer` reads back as the same value: for a
 * terminal's "[EUR]", a browser's prefilled default, and the submitted values handed back beside
 * refusals. Missing is `""`; `null` is `none`; booleans `yes`/`no`; lists and choices joined with
 * commas; dates `YYYY-MM-DD`.
 */
export function formatAnswerText(field: QuestionField, value: unknown): string {
  if (value === undefined) return "";
  if (value === null) return NONE_ANSWER;
  if (Array.isArray(value)) return value.map((item) => formatScalar(item)).join(", ");
  return formatScalar(value);
}

function formatScalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" || typeof value === "number") return String(value);
  return JSON.stringify(value) ?? "";
}
