"use client";

import { Command } from "cmdk";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { PaletteItem } from "@/lib/palette";
import type { ActionResult } from "@/lib/server/define-action";

type Found = { questions: PaletteItem[]; runs: PaletteItem[] };

/** How long typing pauses before the server is asked what has the words. */
const TYPING_PAUSE_MS = 150;

/** Whether the page runs its script: the palette's button is only offered where it can open. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
}

/** Whether this computer's shortcut key is ⌘ (a Mac) rather than Ctrl. */
function usesCommandKey(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** Whether `item` has every word of `text` in its name or its second line. */
function hasWords(item: PaletteItem, text: string): boolean {
  const haystack = `${item.label} ${item.detail ?? ""}`.toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * The command palette: Ctrl/⌘-K (or the "Go to…" button) opens it on any signed-in page; typing finds
 * the pages the person may open, their open questions and — for operators and admins — runs, and Enter
 * goes there. The list is cmdk's (arrow keys, the active row read out); the window is a native modal
 * dialog, so Escape and the focus trap are the browser's.
 */
export function CommandPalette({ places, find }: { places: PaletteItem[]; find: (previous: null, submitted: { words: string }) => Promise<ActionResult<Found>> }) {
  const router = useRouter();
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [words, setWords] = useState("");
  const [found, setFound] = useState<Found>({ questions: [], runs: [] });
  const [looking, setLooking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [selected, setSelected] = useState("");
  const asked = useRef(0);

  function show() {
    setOpen(true);
    dialog.current?.showModal();
  }

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") {
        event.preventDefault();
        if (dialog.current?.open) dialog.current.close();
        else show();
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);

  // Each pause in typing asks the server once; an answer to an older question is dropped.
  useEffect(() => {
    if (!open) return;
    const ask = ++asked.current;
    const timer = setTimeout(
      async () => {
        setLooking(true);
        try {
          const result = await find(null, { words });
          if (ask !== asked.current) return;
          if (result.ok) {
            setFound(result.data);
            setProblem(null);
          } else setProblem(result.error.message);
        } catch {
          if (ask === asked.current) setProblem("Parley could not be reached: questions and runs are not shown. Pages still are.");
        } finally {
          if (ask === asked.current) setLooking(false);
        }
      },
      words === "" ? 0 : TYPING_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [open, words, find]);

  function go(href: string) {
    dialog.current?.close();
    router.push(href);
  }

  const pages = places.filter((place) => hasWords(place, words));
  // The row Enter goes to: the one chosen with the arrows while it is listed, else the first (results arrive after typing).
  const listed = [...pages, ...found.questions, ...found.runs];
  const active = listed.some((item) => item.href === selected) ? selected : (listed[0]?.href ?? "");
  const keyName = hydrated && usesCommandKey() ? "⌘" : "Ctrl";

  return (
    <>
      {hydrated ? (
        <button type="button" className="palette-button" onClick={show} aria-keyshortcuts="Control+K Meta+K" title={`Go to any page, question or run (${keyName} K)`}>
          <span>Go to…</span> <kbd>{keyName} K</kbd>
        </button>
      ) : null}
      <dialog
        ref={dialog}
        className="palette"
        aria-label="Go to a page, question or run"
        onClose={() => {
          setOpen(false);
          setWords("");
          setProblem(null);
        }}
        onClick={(event) => event.target === dialog.current && dialog.current?.close()}
      >
        {open ? (
          <Command label="Go to a page, question or run" shouldFilter={false} loop value={active} onValueChange={setSelected}>
            <Command.Input value={words} onValueChange={setWords} placeholder="A page, a question's words, a run…" maxLength={200} autoFocus />
            <Command.List>
              {looking ? <Command.Loading>Looking…</Command.Loading> : null}
              {problem ? (
                <p className="palette-problem" role="status">
                  {problem}
                </p>
              ) : null}
              {looking ? null : <Command.Empty>Nothing you may open has these words.</Command.Empty>}
              <Group heading="Pages" items={pages} onGo={go} />
              <Group heading={words ? "Open questions with these words" : "Open questions, due soonest"} items={found.questions} onGo={go} />
              <Group heading={words ? "Recent runs with these words" : "Recent runs"} items={found.runs} onGo={go} />
            </Command.List>
            <p className="palette-keys muted small" aria-hidden="true">
              <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to go · <kbd>Esc</kbd> to close
            </p>
          </Command>
        ) : null}
      </dialog>
    </>
  );
}

function Group({ heading, items, onGo }: { heading: string; items: PaletteItem[]; onGo: (href: string) => void }) {
  if (items.length === 0) return null;
  return (
    <Command.Group heading={heading}>
      {items.map((item) => (
        <Command.Item key={item.href} value={item.href} onSelect={() => onGo(item.href)} data-testid="palette-item">
          <span className="palette-label">{item.label}</span>
          {item.detail ? <span className="palette-detail">{item.detail}</span> : null}
        </Command.Item>
      ))}
    </Command.Group>
  );
}
