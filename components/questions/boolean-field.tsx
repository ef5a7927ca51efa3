import { answeredBySwitch } from "@/lib/questions";
import { ChoiceOption } from "./choice-option";
import { isYes, lastEntry, NONE_VALUE } from "./field-entries";
import { ChoiceFrame, type FieldProps, OptionalMark } from "./field-frame";

/**
 * A yes/no question. One that may be skipped or has a default is a switch (a checkbox in the role of
 * a switch, so a keyboard's space turns it), which posts `on` when on and nothing when off — and
 * nothing means no; beside it, Yes or No says its state as it changes, by CSS alone, so it reads
 * right without JavaScript too, starting from the default. A required one without a default is Yes
 * and No radios that start unanswered, so nobody sends "No" without choosing it; a nullable one
 * adds None.
 */
export function BooleanField(props: FieldProps) {
  return answeredBySwitch(props.field) ? <BooleanSwitch {...props} /> : <BooleanChoices {...props} />;
}

function BooleanSwitch({ field, entries, inputId, describedBy, invalid, bind, notes }: FieldProps) {
  return (
    <div className="question-field question-boolean">
      <label htmlFor={inputId} className="question-label">
        {field.question}
        <OptionalMark field={field} />
      </label>
      <div className="yes-no-row">
        <input
          type="checkbox"
          role="switch"
          id={inputId}
          {...bind()}
          defaultChecked={isYes(entries)}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className="yes-no-switch"
        />
        {/* The switch itself tells assistive technology whether it is on; this says it to the eye. */}
        <span className="yes-no-state" aria-hidden="true">
          <span className="yes-no-yes">Yes</span>
          <span className="yes-no-no">No</span>
        </span>
      </div>
      {notes}
    </div>
  );
}

function BooleanChoices(props: FieldProps) {
  const { field, entries, inputId, describedBy, invalid, bind } = props;
  const last = lastEntry(entries).trim().toLowerCase();
  const selected = last === NONE_VALUE && field.nullable ? NONE_VALUE : last === "" ? "" : isYes(entries) ? "yes" : "no";
  const choices = [
    { value: "yes", label: "Yes" },
    { value: "no", label: "No" },
    ...(field.nullable ? [{ value: NONE_VALUE, label: "None" }] : []),
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
