"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/server/define-action";

type AwayResult = ActionResult<{ away: boolean }> | null;

/**
 * The signed-in person's away switch. A plain form underneath, so it works without JavaScript; it
 * shows what the server has (the page is re-rendered after the change), never a guess.
 */
export function AwaySwitch({
  away,
  action: setAway,
}: {
  away: boolean;
  action: (previous: AwayResult, formData: FormData) => Promise<AwayResult>;
}) {
  const [result, action, pending] = useActionState(setAway, null);
  return (
    <form action={action} className="away-switch">
      <input type="hidden" name="away" value={String(!away)} />
      <button
        type="submit"
        role="switch"
        aria-checked={away}
        aria-label="Away"
        title={away ? "You are away: flows don't put questions to you" : "Mark yourself away"}
        disabled={pending}
        className={away ? "switch on" : "switch"}
      >
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        Away
      </button>
      {result && !result.ok ? (
        <span role="alert" className="error-text">
          {result.error.message}
        </span>
      ) : null}
    </form>
  );
}
