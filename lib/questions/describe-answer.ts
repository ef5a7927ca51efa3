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
