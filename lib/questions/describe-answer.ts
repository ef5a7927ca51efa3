import { parseFormAnswer } from "./form-answer";
import type { QuestionField, QuestionSpec } from "./question-spec";

/** One question of an answer as a person reads it back: the question, and what was answered in words. */
export interface AnsweredLine {
  path: string;
  question: string;
  answer: string;
}

/** What a question left out of the answer reads as. */
export const SKIPPED_ANSWER = "(skipped)";

/**
 * An answer as the person who gave it would read it back, question by question: a choice by its
 * title (never its stored key), yes or no, "None", a list joined with commas, a question left out as
 * skipped. `answer` is what Parley keeps: a questionnaire's value, or an agent's ask answered in words
 * (`{ text }`). A value the spec does not describe is shown as it is rather than lost.
 */
export function describeAnswer(spec: Pick<QuestionSpec, "fields">, answer: unknown): AnsweredLine[] {
  if (answer === null || answer === undefined) return [];
  const text = typeof answer === "object" && !Array.isArray(answer) ? (answer as { text?: unknown }).text : undefined;
  if (typeof text === "string" || typeof answer !== "object") {
    const [field] = spec.fields;
    return [{ path: field?.path ?? "", question: field?.question ?? "Answer", answer: typeof text === "string" ? text : String(answer) }];
  }
  return spec.fields.map((field) => ({ path: field.path, question: field.question, answer: describeValue(field, valueAt(answer, field.path)) }));
}

/** An answer in one line, for a list or a run's history: a single question's answer alone, several as "question: answer", joined. */
export function answerLine(lines: readonly AnsweredLine[]): string | null {
  if (lines.length === 0) return null;
  const [only] = lines;
  if (lines.length === 1 && only) return only.answer;
  return lines.map((line) => `${line.question}: ${line.answer}`).join(" · ");
}

/** One field's value in words. */
export function describeValue(field: Pick<QuestionField, "kind" | "options">, value: unknown): string {
  if (value === undefined) return SKIPPED_ANSWER;
  if (value === null) return "None";
  if (Array.isArray(value)) return value.length === 0 ? "(none)" : value.map((item) => describeScalar(field, item)).join(", ");
  return describeScalar(field, value);
}

function describeScalar(field: Pick<QuestionField, "kind" | "options">, value: unknown): string {
  const option = field.options?.find((each) => each.value === value);
  if (option) return option.label;
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string" || typeof value === "number") return String(value);
  return JSON.stringify(value) ?? "";
}

function valueAt(answer: unknown, path: string): unknown {
  let node = answer;
  for (const segment of path.split(".")) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/**
 * What a person typed into a form that was never taken (someone answered first, or the question
 * closed while they wrote), read back as {@link describeAnswer} reads an answer: by field path, the
 * strings the inputs held. A choice reads as its title, a switch as yes or no; text that cannot be
 * read is kept as typed. Questions left blank are left out: nothing typed is no lines at all.
 */
export function describeTypedAnswer(spec: Pick<QuestionSpec, "fields">, values: Readonly<Record<string, string | readonly string[]>>): AnsweredLine[] {
  const lines: AnsweredLine[] = [];
  for (const field of spec.fields) {
    if (!Object.hasOwn(values, field.path)) continue;
    const given = values[field.path];
    const entries = (typeof given === "string" ? [given] : [...(given ?? [])]).filter((entry) => entry.trim() !== "");
    if (entries.length === 0) continue;
    const parsed = parseFormAnswer(field, entries);
    const answer = parsed.ok && parsed.value !== undefined ? describeValue(field, parsed.value) : entries.join(", ");
    lines.push({ path: field.path, question: field.question, answer });
  }
  return lines;
}

/** Answered lines as text to copy: one question's answer alone, several as "question: answer", a line each. */
export function answerToCopy(lines: readonly AnsweredLine[]): string {
  const [only] = lines;
  if (lines.length === 1 && only) return only.answer;
  return lines.map((line) => `${line.question}: ${line.answer}`).join("\n");
}
