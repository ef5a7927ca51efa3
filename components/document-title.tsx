"use client";

import { useEffect } from "react";

/**
 * Keeps the browser tab's title to `title` while the page is shown — for a title that changes as the
 * page updates live (the inbox's count of open questions), which page metadata sets only once.
 */
export function DocumentTitle({ title }: { title: string }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
