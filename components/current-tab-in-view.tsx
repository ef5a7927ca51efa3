"use client";

import { useEffect } from "react";

/**
 * On a phone a row of tabs slides sideways inside itself: this brings the tab of the page shown into
 * view, so "Snoozed" or "Answered by me" is not left off-screen once chosen. `current` is the tab's
 * key, so the tab is brought into view again when another is chosen.
 */
export function CurrentTabInView({ current }: { current: string }) {
  useEffect(() => {
    for (const tab of document.querySelectorAll<HTMLElement>(".tabs [aria-current='page']")) {
      const row = tab.parentElement;
      if (row && row.scrollWidth > row.clientWidth) row.scrollLeft = tab.offsetLeft - row.offsetLeft - 16;
    }
  }, [current]);
  return null;
}
