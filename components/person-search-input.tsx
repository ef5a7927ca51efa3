"use client";

import { useCombobox } from "downshift";
import { useEffect, useRef, useState } from "react";
import type { FoundAssignee } from "@/lib/people";
import type { ActionResult } from "@/lib/server/define-action";

/** How long typing must pause before the server is asked who matches. */
const TYPING_PAUSE_MS = 150;

/**
 * A box for the email of the person something goes to, that finds people as their name or email is
 * typed: the matches (asked of the server, a few at a time, so a thousand people cost nothing) are
 * listed under it, picked with the mouse or the arrow keys and Enter (downshift's combobox: its roles,
 * focus and announcements), and picking one fills in their email. It posts what the box holds under
 * `name`, so without JavaScript it is the plain email box it always was.
 */
export function PersonSearchInput({
  name,
  label,
  find,
  invalid,
  describedBy,
  className,
}: {
  name: string;
  label: string;
  find: (previous: null, submitted: { words: string }) => Promise<ActionResult<FoundAssignee[]>>;
  invalid?: boolean;
  describedBy?: string;
  className?: string;
}) {
  const [typed, setTyped] = useState("");
  // The people found, and for which words: "nobody matches" is said only of the words in the box.
  const [answer, setAnswer] = useState<{ words: string; people: FoundAssignee[] }>({ words: "", people: [] });
  const found = answer.people;
  const [problem, setProblem] = useState<string | null>(null);
  const asked = useRef(0);
  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps } = useCombobox<FoundAssignee>({
    items: found,
    itemToString: (person) => person?.email ?? "",
    itemToKey: (person) => person?.email,
    inputValue: typed,
    onInputValueChange: ({ inputValue }) => setTyped(inputValue),
    // Leaving the box keeps what was typed: only a pick (a click, or Enter on a highlighted row) fills in an email.
    stateReducer: (state, { type, changes }) =>
      type === useCombobox.stateChangeTypes.InputBlur ? { ...changes, selectedItem: state.selectedItem, inputValue: state.inputValue } : changes,
  });

  // Each pause in typing asks the server once, while the list is open; an answer to an older question is dropped.
  useEffect(() => {
    if (!isOpen) return;
    const ask = ++asked.current;
    const timer = setTimeout(async () => {
      try {
        const result = await find(null, { words: typed });
        if (ask !== asked.current) return;
        setAnswer({ words: typed, people: result.ok ? result.data : [] });
        setProblem(result.ok ? null : result.error.message);
      } catch {
        if (ask === asked.current) setProblem("Parley could not be reached to find people: type their email.");
      }
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [isOpen, typed, find]);

  const words = typed.trim();
  const saying = problem ?? (words && answer.words === typed && found.length === 0 ? `Nobody who answers questions matches “${words}”.` : null);
  return (
    <span className={`person-search${className ? ` ${className}` : ""}`}>
      <label {...getLabelProps()}>{label}</label>
      <span className="person-search-box">
        <input
          {...getInputProps({
            name,
            type: "text",
            inputMode: "email",
            autoComplete: "off",
            spellCheck: false,
            placeholder: "a name or an email",
            "aria-invalid": invalid || undefined,
            "aria-describedby": describedBy,
          })}
        />
        <ul {...getMenuProps({ className: "search-choice-list", hidden: !isOpen || found.length === 0 })}>
          {isOpen
            ? found.map((person, index) => (
                <li key={person.email} {...getItemProps({ item: person, index })} className={`search-choice-option${highlightedIndex === index ? " active" : ""}`}>
                  {person.name}
                  <span className="muted">
                    {" "}
                    — {person.email}
                    {person.away ? " (away)" : ""}
                  </span>
                </li>
              ))
            : null}
        </ul>
        {isOpen && saying ? (
          <span className="muted small search-choice-more" role="status">
            {saying}
          </span>
        ) : null}
      </span>
    </span>
  );
}
