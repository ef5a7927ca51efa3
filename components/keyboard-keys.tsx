"use client";

import { useEffect, useRef, useState } from "react";

/**
 * A page's own keys: any element marked `data-key="t"` (with `data-key-label` saying what it does)
 * is pressed by that key — a button or link is clicked, a field is given the focus. The keys shown by
 * `?` are those of the page in front of the person, read when they ask.
 */
const PAGE_KEY = "[data-key]";

/** Keys that hold on every signed-in page, and on pages with the parts they name. */
const ALWAYS: { keys: string[]; label: string; when?: string }[] = [
  { keys: ["?"], label: "Show these keys" },
  { keys: ["Ctrl K"], label: "Go to any page, question or run (⌘ K on a Mac)" },
  { keys: ["/"], label: "Search", when: "[data-search-box]" },
  { keys: ["j", "k"], label: "Move to the next or the previous question", when: "[data-inbox-link]" },
  { keys: ["Enter"], label: "Open the question with the focus", when: "[data-inbox-link]" },
];

/** Whether a key press belongs to a field or a shortcut of the browser, not to the page. */
function notForUs(event: KeyboardEvent): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return true;
  const target = event.target as HTMLElement | null;
  return Boolean(target?.closest("input, textarea, select, [contenteditable='true'], dialog"));
}

/**
 * The keyboard on every signed-in page: `?` lists the keys that work on this page, `/` goes to its
 * search box, and a page's own keys (`data-key`) press what they name — "t" takes a question, "a"
 * goes to its answer, "u" goes back. Keys typed into a field are left alone.
 */
export function KeyboardKeys() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [shown, setShown] = useState<{ keys: string[]; label: string }[]>([]);

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (notForUs(event)) return;
      if (event.key === "?") {
        event.preventDefault();
        const pageKeys = Array.from(document.querySelectorAll<HTMLElement>(PAGE_KEY)).map((element) => ({
          keys: [element.dataset.key!],
          label: element.dataset.keyLabel ?? element.textContent?.trim() ?? "",
        }));
        setShown([...ALWAYS.filter((entry) => !entry.when || document.querySelector(entry.when)), ...pageKeys]);
        dialog.current?.showModal();
        return;
      }
      if (event.key === "/") {
        const box = document.querySelector<HTMLInputElement>("[data-search-box]");
        if (!box) return;
        event.preventDefault();
        box.focus();
        box.select();
        return;
      }
      const element = document.querySelector<HTMLElement>(`[data-key="${CSS.escape(event.key)}"]`);
      if (!element) return;
      event.preventDefault();
      // A field takes the focus; a part of the page holding fields (an answer form) gives it to its first; anything else is pressed.
      const field = element.matches("input, textarea, select")
        ? element
        : element.matches("a, button, summary")
          ? null
          : element.querySelector<HTMLElement>("input:not([type='hidden']), textarea, select");
      if (field) field.focus();
      else element.click();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  return (
    <dialog ref={dialog} className="keys-dialog" aria-labelledby="keys-title" onClick={(event) => event.target === dialog.current && dialog.current?.close()}>
      <h2 id="keys-title">Keys on this page</h2>
      <dl className="keys-list">
        {shown.map((entry) => (
          <div key={entry.keys.join(" ")}>
            <dt>
              {entry.keys.map((key, index) => (
                <span key={key}>
                  {index > 0 ? " " : null}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{entry.label}</dd>
          </div>
        ))}
      </dl>
      <form method="dialog">
        <button type="submit" autoFocus>
          Close
        </button>
      </form>
    </dialog>
  );
}
