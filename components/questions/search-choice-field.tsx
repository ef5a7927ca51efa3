"use client";
// downshift's prop getters (getInputProps, getMenuProps…) are called while rendering and hand React the
// refs its combobox keeps, by its design: the rule cannot see that they are only read after mounting.
/* eslint-disable react-hooks/refs */

import { useCombobox } from "downshift";
import { type ReactNode, useState, useSyncExternalStore } from "react";
import { isNoneEntry, lastEntry, NONE_VALUE, optionFor } from "./field-entries";
import { type FieldProps, OptionalMark } from "./field-frame";

/** One option as the box lists it: the value it posts and the words it is found by. */
interface Choice {
  value: string;
  label: string;
  description?: string;
}

/** Nothing to subscribe to: a page is hydrated once. */
const subscribe = () => () => {};

/** At most this many choices are listed at once: more of the name narrows them. */
const LISTED = 50;

/** Lower case without accents, so "zoe" finds "Zoë". */
function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
}

/** The choices whose words hold every word typed, in the schema's order; all of them for nothing typed. */
export function choicesMatching(choices: readonly Choice[], typed: string): Choice[] {
  const words = fold(typed).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...choices];
  return choices.filter((choice) => {
    const text = fold(`${choice.label} ${choice.description ?? ""}`);
    return words.every((word) => text.includes(word));
  });
}

function startingChoice(props: FieldProps, choices: readonly Choice[]): Choice | null {
  const last = lastEntry(props.entries);
  if (isNoneEntry(props.field, last) && optionFor(props.field.options ?? [], last) === undefined) return choices.find((choice) => choice.value === NONE_VALUE) ?? null;
  const option = optionFor(props.field.options ?? [], last);
  return option === undefined ? null : (choices.find((choice) => choice.value === String(option.value)) ?? null);
}

/**
 * A choice found by typing (the schema's `.meta({ searchable: true })`: a person among everyone): a
 * box that narrows the options to those holding every word typed, a list to pick from with the mouse
 * or the arrow keys and Enter (downshift's combobox: its roles, focus and announcements), and a hidden
 * input posting the chosen value under the field's name. Until the page's script runs — and without
 * JavaScript — it is `fallback`, the select every browser can send.
 */
export function SearchChoiceField({ fallback, ...props }: FieldProps & { fallback: ReactNode }) {
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  return hydrated ? <SearchBox {...props} /> : fallback;
}

function SearchBox(props: FieldProps) {
  const { field, inputId, describedBy, invalid, bind, notes } = props;
  const registration = bind();
  const choices: Choice[] = [
    ...(field.options ?? []).map((option) => ({ value: String(option.value), label: option.label, ...(option.description ? { description: option.description } : {}) })),
    ...(field.nullable ? [{ value: NONE_VALUE, label: "None" }] : []),
  ];
  const [chosen, setChosen] = useState<Choice | null>(() => startingChoice(props, choices));
  const [typed, setTyped] = useState(chosen?.label ?? "");
  // What was chosen shows in the box; opening the list then offers every choice, not only the one named.
  const matching = chosen && typed === chosen.label ? choices : choicesMatching(choices, typed);
  const shown = matching.slice(0, LISTED);
  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps, getToggleButtonProps } = useCombobox<Choice>({
    items: shown,
    inputId,
    labelId: `${inputId}-label`,
    menuId: `${inputId}-menu`,
    itemToString: (choice) => choice?.label ?? "",
    itemToKey: (choice) => choice?.value,
    selectedItem: chosen,
    inputValue: typed,
    onInputValueChange: ({ inputValue }) => setTyped(inputValue),
    onSelectedItemChange: ({ selectedItem }) => {
      setChosen(selectedItem);
      // The form's hints read the value from react-hook-form, told of it as if the hidden input had changed.
      void registration.onChange({ target: { name: registration.name, value: selectedItem?.value ?? "" }, type: "change" });
    },
  });
  return (
    <div className="question-field search-choice">
      <label {...getLabelProps()} className="question-label">
        {field.question}
        <OptionalMark field={field} />
      </label>
      <div className="search-choice-box">
        <input
          {...getInputProps({
            className: "question-input",
            placeholder: "Type a name to find it",
            "aria-describedby": describedBy,
            "aria-invalid": invalid || undefined,
            // Typing over a choice unchooses it: what is posted is only ever a choice picked from the list.
            onChange: (event) => {
              if (chosen && event.currentTarget.value !== chosen.label) {
                setChosen(null);
                void registration.onChange({ target: { name: registration.name, value: "" }, type: "change" });
              }
            },
          })}
        />
        <button type="button" className="secondary search-choice-toggle" {...getToggleButtonProps({ "aria-label": isOpen ? "Close the list" : "Show every choice" })}>
          ▾
        </button>
      </div>
      <input type="hidden" name={registration.name} ref={registration.ref} value={chosen?.value ?? ""} />
      <ul {...getMenuProps({ className: "search-choice-list", hidden: !isOpen || shown.length === 0 })}>
        {isOpen
          ? shown.map((choice, index) => (
              <li key={choice.value} {...getItemProps({ item: choice, index })} className={`search-choice-option${highlightedIndex === index ? " active" : ""}`}>
                {choice.label}
                {choice.description ? <span className="muted"> — {choice.description}</span> : null}
                {chosen?.value === choice.value ? <span className="muted"> (chosen)</span> : null}
              </li>
            ))
          : null}
      </ul>
      {isOpen && (shown.length === 0 || matching.length > shown.length) ? (
        <p className="muted small search-choice-more" role="status">
          {shown.length === 0 ? `Nothing matches “${typed}”.` : `The first ${shown.length} of ${matching.length}: type more of the name to narrow them.`}
        </p>
      ) : null}
      {notes}
    </div>
  );
}
