import type { FormAnswer, QuestionField, QuestionSpec } from "@/lib/questions";
import { entriesOf } from "@/lib/questions/form-answer";

/**
 * What the caller's server action hands back to {@link QuestionForm} after a refused submission
 * (the shape `useActionState` keeps). Everything is optional: the first render passes `null`.
 */
export interface QuestionFormState {
  /**
   * What was submitted, by field path: the posted strings (see {@link submittedValues}) or a value
   * written back with `formatAnswerText`. When present it replaces the defaults entirely — React 19
   * resets uncontrolled inputs after a form action, so these become the inputs' `defaultValue`.
   */
  values?: Readonly<Record<string, string | readonly string[]>>;
  /** The schema's refusals by field path (`validateFormAnswer(...).fieldErrors`). */
  fieldErrors?: Readonly<Record<string, readonly string[]>>;
  /** Refusals tied to no field, shown in the banner (`validateFormAnswer(...).formErrors`). */
  formErrors?: readonly string[];
  /** The schema has checks across answers that have not run yet (`moreChecksAfterThese`). */
  moreChecksAfterThese?: boolean;
  /** The attempt about to be made, e.g. `attemptLabel(...)` → "attempt 2 of 3". */
  attemptLabel?: string;
  /** The attempt about to be made is the last: the form says so before it is made. */
  lastAttempt?: boolean;
}

/**
 * The strings a browser posted for each question of the spec, by field path — exactly what the
 * inputs held, unreadable text included, so the form can show it again beside its refusal. Keys
 * that are no question of the spec are ignored.
 */
export function submittedValues(spec: QuestionSpec, form: FormAnswer): Record<string, string[]> {
  const values: Record<string, string[]> = {};
  for (const field of spec.fields) {
    const entries = entriesOf(form, field.path);
    if (entries.length > 0) values[field.path] = entries;
  }
  return values;
}

/** The messages recorded under `path` in a plain or null-prototype record. */
export function messagesAt(record: Readonly<Record<string, readonly string[]>> | undefined, path: string): readonly string[] {
  if (record === undefined || !Object.hasOwn(record, path)) return [];
  return record[path] ?? [];
}

/** The entries a field starts with: the submitted ones when values were returned, else its default. */
export function startingEntries(field: QuestionField, values: QuestionFormState["values"], defaultEntries: (field: QuestionField) => string[]): string[] {
  if (values === undefined) return defaultEntries(field);
  if (!Object.hasOwn(values, field.path)) return [];
  const entry = values[field.path];
  if (entry === undefined) return [];
  return typeof entry === "string" ? [entry] : [...entry];
}
