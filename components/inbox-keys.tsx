"use client";

import { useEffect } from "react";

/** Where focus can be moved with j and k: each question's link in the list. */
const ROW_LINK = "[data-inbox-link]";

/**
 * Keyboard use of the inbox: j moves to the next question, k to the previous one, Enter opens the
 * one with the focus (it is a link). Keys typed into a field (the search box) are left alone, as
 * are keys with a modifier.
 */
export function InboxKeys() {
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "j" && event.key !== "k") return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable='true']")) return;
      const links = Array.from(document.querySelectorAll<HTMLAnchorElement>(ROW_LINK));
      if (links.length === 0) return;
      const current = links.indexOf(document.activeElement as HTMLAnchorElement);
      const next = current === -1 ? (event.key === "j" ? 0 : links.length - 1) : Math.min(Math.max(current + (event.key === "j" ? 1 : -1), 0), links.length - 1);
      event.preventDefault();
      links[next]?.focus();
      links[next]?.scrollIntoView({ block: "nearest" });
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
  return null;
}
