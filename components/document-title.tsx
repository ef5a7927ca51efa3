"use client";

import { useEffect } from "react";

/**
 * Keeps the browser tab's title to `title` while the page is shown — for a title that changes as the
 * page updates live (the inbox's count of open questions), which page metadata sets only once. The
 * page's metadata title can arrive after this renders (Next.js streams it), so a later change of the
 * head's title is set back.
 */
export function DocumentTitle({ title }: { title: string }) {
  useEffect(() => {
    const keep = () => {
      if (document.title !== title) document.title = title;
    };
    keep();
    const observer = new MutationObserver(keep);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [title]);
  return null;
}
