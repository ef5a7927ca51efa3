import { asksForLongText } from "@/lib/questions";

import { type FieldProps, NoneCheckbox, SingleInputFrame, typedEntry } from "./field-frame";

const INPUT_MODES: Partial<Record<string, "email" | "url">> = { email: "email", url: "url" };

/**
 * A free-text question. `maxlength`/`minlength` come from the schema's limits; its pattern is only
 * checked by the browser hints (zod's `.regex()` is unanchored and tests trimmed text, unlike the
 * `pattern` attribute) and, finally, by the server. A question whose schema leaves room for an
 * explanation is a box of several lines (the schema decides: {@link asksForLongText}).
 */
export function TextField(props: FieldProps) {
  const { field, entries, inputId, describedBy, invalid, bind } = props;
  const box = {
    id: inputId,
    ...bind(),
    defaultValue: typedEntry(field, entries),
    maxLength: field.hints.maxLength,
    minLength: field.hints.minLength,
    "aria-describedby": describedBy,
    "aria-invalid": invalid || undefined,
  };
  return (
    <SingleInputFrame {...props}>
      {asksForLongText(field) ? (
        <textarea {...box} rows={4} className="question-input question-long-text" />
      ) : (
        <input type="text" {...box} inputMode={INPUT_MODES[field.hints.format ?? ""]} className="question-input" />
      )}
      <NoneCheckbox {...props} />
    </SingleInputFrame>
  );
}
