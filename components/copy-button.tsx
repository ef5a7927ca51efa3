"use client";

import { useState, useSyncExternalStore } from "react";

const noSubscription = () => () => {};

/**
 * Copies `text` to the clipboard. Rendered only where the browser can copy (JavaScript on, a secure
 * page): elsewhere the text is there to select, and a button that does nothing would mislead.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const canCopy = useSyncExternalStore(
    noSubscription,
    () => typeof navigator !== "undefined" && typeof navigator.clipboard?.writeText === "function",
    () => false,
  );
  const [outcome, setOutcome] = useState<"copied" | "failed" | null>(null);
  if (!canCopy) return null;
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setOutcome("copied");
    } catch {
      setOutcome("failed");
    }
  }
  return (
    <span className="copy">
      <button type="button" className="secondary small" aria-label={label} onClick={copy}>
        Copy
      </button>
      <span role="status" className={outcome === "failed" ? "error-text" : "muted"}>
        {outcome === "copied" ? "Copied." : outcome === "failed" ? "Copying did not work: select it and copy it yourself." : ""}
      </span>
    </span>
  );
}
