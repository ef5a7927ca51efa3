import { type FieldProps, NoneCheckbox, SingleInputFrame, typedEntry } from "./field-frame";

/**
 * A number or whole-number question. A text input with a numeric keyboard rather than
 * `type=number`, which would empty the box of text it cannot read — and after a refusal the person
 * must see what they typed beside the reason. Empty is missing, never 0; the limits are shown in
 * the hint.
 */
export function NumberField(props: FieldProps) {
  const { field, entries, inputId, describedBy, invalid, bind } = props;
  const { min } = field.hints;
  // Phone keypads for "numeric" and "decimal" have no minus sign.
  const negativeAllowed = typeof min !== "number" || min < 0;
  const inputMode = negativeAllowed ? undefined : field.kind === "integer" || field.hints.step === 1 ? "numeric" : "decimal";
  return (
    <SingleInputFrame {...props}>
      <input
        type="text"
        id={inputId}
        {...bind()}
        defaultValue={typedEntry(field, entries)}
        inputMode={inputMode}
        autoComplete="off"
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className="question-input question-number"
      />
      <NoneCheckbox {...props} />
    </SingleInputFrame>
  );
}
