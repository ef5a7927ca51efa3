import { ChoiceOption } from "./choice-option";
import { NONE_VALUE, tickedValues } from "./field-entries";
import { ChoiceFrame, type FieldProps } from "./field-frame";

/**
 * Several of fixed options: a checkbox per option, each posting its value as text (one ticked box
 * is still a list, none ticked is the empty list). A nullable field adds a "None" box.
 */
export function MultiChoiceField(props: FieldProps) {
  const { field, entries, inputId, describedBy, invalid, bind } = props;
  const ticked = tickedValues(field, entries);
  const noneTicked = field.nullable && entries.some((entry) => entry.trim().toLowerCase() === NONE_VALUE) && !ticked.has(NONE_VALUE);
  return (
    <ChoiceFrame {...props}>
      {(field.options ?? []).map((option, index) => (
        <ChoiceOption
          key={String(option.value)}
          type="checkbox"
          id={index === 0 ? inputId : `${inputId}-${index}`}
          value={String(option.value)}
          label={option.label}
          description={option.description}
          checked={ticked.has(String(option.value))}
          describedBy={describedBy}
          invalid={invalid}
          binding={bind()}
        />
      ))}
      {field.nullable ? (
        <ChoiceOption type="checkbox" id={`${inputId}-none`} value={NONE_VALUE} label="None" checked={noneTicked} describedBy={describedBy} invalid={invalid} binding={bind()} />
      ) : null}
    </ChoiceFrame>
  );
}
