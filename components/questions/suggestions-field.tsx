"use client";

import { type ChangeEvent, useRef } from "react";

import { asksForLongText } from "@/lib/questions";

import { ChoiceOption } from "./choice-option";
import { isNoneEntry, lastEntry, NONE_VALUE, optionFor } from "./field-entries";
import { ChoiceFrame, type FieldProps } from "./field-frame";

/**
 * A free-text question that offers suggestions — an agent's ask with options: a `text` field
 * whose spec lists `options`. "In my own words" (a radio posting `""`) and its text box come
 * before the suggestion radios, all under the field's name; the server reads the last entry, so a
 * ticked suggestion wins over the box, and with "In my own words" ticked the box's text is the
 * answer. With JavaScript, typing in the box ticks "In my own words".
 */
export function SuggestionsField(props: FieldProps) {
  const { field, entries, inputId, describedBy, invalid, bind } = props;
  const ownWords = useRef<HTMLInputElement>(null);
  const options = field.options ?? [];
  const last = lastEntry(entries);
  const suggestion = optionFor(options, last);
  const none = suggestion === undefined && isNoneEntry(field, last);
  const chose = suggestion !== undefined || none;
  const typed = chose ? (entries.length > 1 ? (entries[0] ?? "") : "") : last;
  const binding = bind();
  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    if (ownWords.current !== null) ownWords.current.checked = true;
    return binding.onChange(event);
  };
  const box = {
    id: inputId,
    ...binding,
    onChange,
    defaultValue: typed,
    maxLength: field.hints.maxLength,
    "aria-labelledby": `${inputId}-legend ${inputId}-own-label`,
    "aria-describedby": describedBy,
    "aria-invalid": invalid || undefined,
  };
  return (
    <ChoiceFrame {...props}>
      <div className="question-option question-own-words">
        <input type="radio" id={`${inputId}-own`} ref={ownWords} name={field.path} value="" defaultChecked={!chose && typed !== ""} aria-describedby={describedBy} />
        <label htmlFor={`${inputId}-own`} id={`${inputId}-own-label`}>
          In my own words
        </label>
        {/* Room for an explanation unless the schema keeps it short (the schema decides). */}
        {asksForLongText(field) ? <textarea {...box} rows={3} className="question-input question-long-text" /> : <input type="text" {...box} className="question-input" />}
      </div>
      {options.map((option, index) => (
        <ChoiceOption
          key={String(option.value)}
          type="radio"
          id={`${inputId}-${index}`}
          value={String(option.value)}
          label={option.label}
          description={option.description}
          checked={suggestion === option}
          describedBy={describedBy}
          invalid={invalid}
          binding={{ name: field.path }}
        />
      ))}
      {field.nullable ? (
        <ChoiceOption type="radio" id={`${inputId}-none`} value={NONE_VALUE} label="None" checked={none} describedBy={describedBy} invalid={invalid} binding={{ name: field.path }} />
      ) : null}
    </ChoiceFrame>
  );
}
