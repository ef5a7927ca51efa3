import type { ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";

import type { QuestionField as Field } from "@/lib/questions";

import { BooleanField } from "./boolean-field";
import { DateField } from "./date-field";
import { EnumField } from "./enum-field";
import { hintText } from "./field-entries";
import type { FieldProps } from "./field-frame";
import { ListField } from "./list-field";
import { MultiChoiceField } from "./multi-choice-field";
import { NumberField } from "./number-field";
import { SuggestionsField } from "./suggestions-field";
import { TextField } from "./text-field";

/**
 * One question of the spec with its hint, the server's refusals (in the schema's words) and the
 * browser's instant hint, all tied to its inputs by `aria-describedby`.
 */
export function QuestionField({
  field,
  entries,
  inputId,
  refusals,
  browserHint,
  bind,
}: {
  field: Field;
  entries: readonly string[];
  inputId: string;
  /** What the server said about this field on the last submission. */
  refusals: readonly string[];
  /** What the browser's lenient check says now, if anything (never blocks submitting). */
  browserHint: string | undefined;
  bind: () => UseFormRegisterReturn;
}) {
  const hint = hintText(field);
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const liveId = `${inputId}-live`;
  const showBrowserHint = browserHint !== undefined && !refusals.includes(browserHint);
  const describedBy = [hint === undefined ? undefined : hintId, refusals.length > 0 ? errorId : undefined, showBrowserHint ? liveId : undefined].filter((id) => id !== undefined).join(" ") || undefined;
  const notes: ReactNode = (
    <>
      {hint === undefined ? null : (
        <p id={hintId} className="question-hint">
          {hint}
        </p>
      )}
      {refusals.length === 0 ? null : (
        <ul id={errorId} className="question-errors">
          {refusals.map((message, index) => (
            <li key={index}>{message}</li>
          ))}
        </ul>
      )}
      {/* Polite and always present, so a hint that appears while typing is announced. */}
      <p id={liveId} className="question-browser-hint" aria-live="polite">
        {showBrowserHint ? browserHint : null}
      </p>
    </>
  );
  const props: FieldProps = { field, entries, inputId, describedBy, invalid: refusals.length > 0 || showBrowserHint, bind, notes };
  return <FieldOfKind {...props} />;
}

function FieldOfKind(props: FieldProps) {
  switch (props.field.kind) {
    case "text":
      return (props.field.options ?? []).length > 0 ? <SuggestionsField {...props} /> : <TextField {...props} />;
    case "number":
    case "integer":
      return <NumberField {...props} />;
    case "enum":
      return <EnumField {...props} />;
    case "multi-choice":
      return <MultiChoiceField {...props} />;
    case "boolean":
      return <BooleanField {...props} />;
    case "list":
      return <ListField {...props} />;
    case "date":
      return <DateField {...props} />;
    default:
      // A spec stored by another version of the code; the server refuses the kind too.
      return <TextField {...props} />;
  }
}
