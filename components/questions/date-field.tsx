import { type FieldProps, NoneCheckbox, SingleInputFrame, typedEntry } from "./field-frame";

/** A date question: the browser's date picker, which posts `YYYY-MM-DD` — the one form dates are read in. */
export function DateField(props: FieldProps) {
  const { field, entries, inputId, describedBy, invalid, bind } = props;
  const { min, max } = field.hints;
  return (
    <SingleInputFrame {...props}>
      <input
        type="date"
        id={inputId}
        {...bind()}
        defaultValue={typedEntry(field, entries)}
        min={typeof min === "string" ? min : undefined}
        max={typeof max === "string" ? max : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className="question-input question-date"
      />
      <NoneCheckbox {...props} />
    </SingleInputFrame>
  );
}
