import type { ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

import type { QuestionField } from "@/lib/questions";

import { ChoiceOption } from "./choice-option";
import { isNoneEntry, NONE_VALUE } from "./field-entries";

/** What every field-kind component receives from the form. */
export interface FieldProps {
  field: QuestionField;
  /** What the inputs start with: the submitted strings after a refusal, else the default. */
  entries: readonly string[];
  /** The id of the field's main input (a group's inputs derive theirs from it). */
  inputId: string;
  /** Ids of the hint and messages that describe the field, for `aria-describedby`. */
  describedBy: string | undefined;
  /** The server refused the field, or a browser hint says it will. */
  invalid: boolean;
  /** The react-hook-form binding for one of the field's inputs: its name, change and blur handlers. */
  bind: () => UseFormRegisterReturn;
  /** The hint and messages under the question, already laid out by the form. */
  notes: ReactNode;
}

/** "(optional)" beside a question that may be skipped — unless its own words say so already. */
export function OptionalMark({ field }: { field: QuestionField }) {
  return field.optional && !/\(optional\)\s*$/i.test(field.question) ? <span className="question-optional"> (optional)</span> : null;
}

/** A question answered in one input: its label, the input, then the hint and messages. */
export function SingleInputFrame({ field, inputId, notes, children }: Pick<FieldProps, "field" | "inputId" | "notes"> & { children: ReactNode }) {
  return (
    <div className="question-field">
      <label htmlFor={inputId} className="question-label">
        {field.question}
        <OptionalMark field={field} />
      </label>
      {children}
      {notes}
    </div>
  );
}

/** A question answered by choosing: a fieldset whose legend is the question. */
export function ChoiceFrame({ field, inputId, notes, children }: Pick<FieldProps, "field" | "inputId" | "notes"> & { children: ReactNode }) {
  return (
    <fieldset className="question-field question-choices" id={`${inputId}-group`}>
      <legend className="question-label" id={`${inputId}-legend`}>
        {field.question}
        <OptionalMark field={field} />
      </legend>
      <div className="question-options">{children}</div>
      {notes}
    </fieldset>
  );
}

/** The text a single input starts with, when a "None" box after it may have posted last. */
export function typedEntry(field: QuestionField, entries: readonly string[]): string {
  const last = entries.at(-1) ?? "";
  if (!isNoneEntry(field, last)) return last;
  return entries.length > 1 ? (entries[0] ?? "") : "";
}

/**
 * The explicit "None" of a nullable field answered in one input. It comes after the input and
 * shares its name, so when ticked it is the entry the server reads last: `none`, which is `null`.
 */
export function NoneCheckbox({ field, inputId, entries }: Pick<FieldProps, "field" | "inputId" | "entries">) {
  if (!field.nullable) return null;
  return (
    <ChoiceOption type="checkbox" id={`${inputId}-none`} value={NONE_VALUE} label="None" checked={isNoneEntry(field, entries.at(-1) ?? "")} describedBy={undefined} invalid={false} binding={{ name: field.path }} />
  );
}
