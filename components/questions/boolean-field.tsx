import { ChoiceOption } from "./choice-option";
import { isYes, lastEntry, NONE_VALUE } from "./field-entries";
import { ChoiceFrame, type FieldProps, OptionalMark } from "./field-frame";

/**
 * A yes/no question: one checkbox, which posts `on` when ticked and nothing when not — and
 * nothing means no. A nullable one needs three answers, so it is Yes / No / None radios.
 */
export function BooleanField(props: FieldProps) {
  return props.field.nullable ? <NullableBoolean {...props} /> : <BooleanCheckbox {...props} />;
}

function BooleanCheckbox({ field, entries, inputId, describedBy, invalid, bind, notes }: FieldProps) {
  return (
    <div className="question-field question-boolean">
      <div className="question-option">
        <input type="checkbox" id={inputId} {...bind()} defaultChecked={isYes(entries)} aria-describedby={describedBy} aria-invalid={invalid || undefined} />
        <label htmlFor={inputId} className="question-label">
          {field.question}
          <OptionalMark field={field} />
        </label>
      </div>
      {notes}
    </div>
  );
}

function NullableBoolean(props: FieldProps) {
  const { entries, inputId, describedBy, invalid, bind } = props;
  const last = lastEntry(entries).trim().toLowerCase();
  const selected = last === NONE_VALUE ? NONE_VALUE : last === "" ? "" : isYes(entries) ? "yes" : "no";
  const choices = [
    { value: "yes", label: "Yes" },
    { value: "no", label: "No" },
    { value: NONE_VALUE, label: "None" },
  ];
  return (
    <ChoiceFrame {...props}>
      {choices.map((choice, index) => (
        <ChoiceOption
          key={choice.value}
          type="radio"
          id={index === 0 ? inputId : `${inputId}-${choice.value}`}
          value={choice.value}
          label={choice.label}
          checked={selected === choice.value}
          describedBy={describedBy}
          invalid={invalid}
          binding={bind()}
        />
      ))}
    </ChoiceFrame>
  );
}
