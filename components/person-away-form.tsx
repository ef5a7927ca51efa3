"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/server/define-action";

type Result = ActionResult<{ userId: string; away: boolean }> | null;

/** One person's away flag on the admin page; the page re-renders with what the server stored. */
export function PersonAwayForm({
  userId,
  name,
  away,
  action: setAway,
}: {
  userId: string;
  name: string;
  away: boolean;
  action: (previous: Result, formData: FormData) => Promise<Result>;
}) {
  const [result, action, pending] = useActionState(setAway, null);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="away" value={String(!away)} />
      <span className={away ? "badge amber" : "badge"}>{away ? "Away" : "Available"}</span>
      <button type="submit" className="secondary small" disabled={pending} aria-label={away ? `Mark back: ${name}` : `Mark away: ${name}`}>
        {away ? "Mark back" : "Mark away"}
      </button>
      {result && !result.ok ? (
        <span role="alert" className="error-text">
          {result.error.message}
        </span>
      ) : null}
    </form>
  );
}
