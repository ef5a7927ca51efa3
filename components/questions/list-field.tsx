import { type FieldProps, NoneCheckbox, SingleInputFrame, typedEntry } from "./field-frame";

/** A list of texts, numbers or dates, typed on one line; the hint says "separate with commas". */
export function ListField(props: FieldProps) {
  const { field, entries, inputId, describedBy, invalid, bind } = props;
  return (
    <SingleInputFrame {...props}>
      <input
        type="text"
        id={inputId}
        {...bind()}
        defaultValue={typedEntry(field, entries)}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className="question-input"
      />
      <NoneCheckbox {...props} />
    </SingleInputFrame>
  );
}
