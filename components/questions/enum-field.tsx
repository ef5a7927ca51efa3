import { ChoiceOption } from "./choice-option";
import { isNoneEntry, lastEntry, NONE_VALUE, optionFor } from "./field-entries";
import { ChoiceFrame, type FieldProps, SingleInputFrame } from "./field-frame";
import { SearchChoiceField } from "./search-choice-field";

/** Up to this many options are radios; beyond, a select. */
export const MAX_RADIO_OPTIONS = 7;

/**
 * One of fixed options: radios (a select beyond {@link MAX_RADIO_OPTIONS}; a search box where the schema
 * asks for one), each posting its value
 * as text. A nullable field adds "None"; an optional one without a default adds "No answer", since
 * a radio cannot be unticked without JavaScript.
 */
export function EnumField(props: FieldProps) {
  const options = props.field.options ?? [];
  const listed = options.length > MAX_RADIO_OPTIONS ? <EnumSelect {...props} /> : <EnumRadios {...props} />;
  // A choice the schema says is found by typing: a search box once the page's script runs, listed until then.
  return props.field.hints.searchable ? <SearchChoiceField {...props} fallback={listed} /> : listed;
}

function selectedValue(props: FieldProps): string {
  const last = lastEntry(props.entries);
  if (isNoneEntry(props.field, last) && optionFor(props.field.options ?? [], last) === undefined) return NONE_VALUE;
  const option = optionFor(props.field.options ?? [], last);
  return option === undefined ? "" : String(option.value);
}

function EnumRadios(props: FieldProps) {
  const { field, inputId, describedBy, invalid, bind } = props;
  const selected = selectedValue(props);
  const options = field.options ?? [];
  const skippable = field.optional && !field.hasDefault;
  return (
    <ChoiceFrame {...props}>
      {options.map((option, index) => (
        <ChoiceOption
          key={String(option.value)}
          type="radio"
          id={index === 0 ? inputId : `${inputId}-${index}`}
          value={String(option.value)}
          label={option.label}
          description={option.description}
          checked={selected === String(option.value)}
          describedBy={describedBy}
          invalid={invalid}
          binding={bind()}
        />
      ))}
      {field.nullable ? (
        <ChoiceOption type="radio" id={`${inputId}-none`} value={NONE_VALUE} label="None" checked={selected === NONE_VALUE} describedBy={describedBy} invalid={invalid} binding={bind()} />
      ) : null}
      {skippable ? (
        <ChoiceOption type="radio" id={`${inputId}-skip`} value="" label="No answer" checked={false} describedBy={describedBy} invalid={invalid} binding={bind()} />
      ) : null}
    </ChoiceFrame>
  );
}

function EnumSelect(props: FieldProps) {
  const { field, inputId, describedBy, invalid, bind } = props;
  const selected = selectedValue(props);
  return (
    <SingleInputFrame {...props}>
      {/* React applies a select's defaultValue only when it mounts, and React 19 resets the form to
          it after an action: a new starting value mounts a new select, so the reset keeps the choice. */}
      <select key={selected} id={inputId} {...bind()} defaultValue={selected} aria-describedby={describedBy} aria-invalid={invalid || undefined} className="question-input">
        {/* Posts "", which is missing: the schema then takes the default, skips or refuses. */}
        <option value="">Choose…</option>
        {(field.options ?? []).map((option) => (
          <option key={String(option.value)} value={String(option.value)}>
            {option.description === undefined ? option.label : `${option.label} — ${option.description}`}
          </option>
        ))}
        {field.nullable ? <option value={NONE_VALUE}>None</option> : null}
      </select>
    </SingleInputFrame>
  );
}
