"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/server/define-action";

type MarkResult = ActionResult<{ marked: number }> | null;

/** "Mark all read" for the notifications list; works without JavaScript. */
export function MarkAllReadForm({ action }: { action: (previous: MarkResult, formData: FormData) => Promise<MarkResult> }) {
  const [state, mark, pending] = useActionState(action, null);
  return (
    <form action={mark} className="inline-form">
      <button type="submit" className="secondary small" disabled={pending}>
        Mark all read
      </button>
      {state && !state.ok ? (
        <span role="alert" className="error-text">
          {state.error.message}
        </span>
      ) : null}
    </form>
  );
}
