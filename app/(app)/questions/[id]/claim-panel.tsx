"use client";

import { LocalTime } from "@/components/local-time";
import { useActionState } from "react";
import type { ActionResult } from "@/lib/server/define-action";
import type { ClaimOutcome } from "./answer-state";

/**
 * Who holds a question put to a team (or to several people): "I'll take it" when nobody does, "Give
 * it back" for its holder, and who took it for everyone else. Works as a plain form without JavaScript.
 */
export function ClaimPanel({
  questionId,
  holder,
  action,
}: {
  questionId: string;
  /** Who holds it now: nobody, the person looking, or someone else (by name, since when). */
  holder: { kind: "nobody" } | { kind: "me"; since: string | null } | { kind: "other"; name: string; since: string | null };
  action: (previous: ActionResult<ClaimOutcome> | null, formData: FormData) => Promise<ActionResult<ClaimOutcome>>;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  return (
    <div className="claim-panel" data-testid="claim-panel">
      {holder.kind === "other" ? (
        <p role="status">
          <strong>{holder.name}</strong> took this question
          {holder.since ? (
            <>
              {" "}
              at <LocalTime at={holder.since} />
            </>
          ) : null}
          : only they can answer it unless they give it back.
        </p>
      ) : (
        <form action={formAction} className="inline-form">
          <input type="hidden" name="questionId" value={questionId} />
          <input type="hidden" name="intent" value={holder.kind === "me" ? "give-back" : "take"} />
          <p>{holder.kind === "me" ? "You took this question: the others see you have it." : "Put to your team: take it so the others know you are on it."}</p>
          <button type="submit" className="secondary small" disabled={pending} data-key="t" data-key-label={holder.kind === "me" ? "Give the question back" : "Take the question"}>
            {holder.kind === "me" ? "Give it back" : "I'll take it"}
          </button>
        </form>
      )}
      {result && !result.ok ? (
        <p role="alert" className="error-text">
          {result.error.message}
        </p>
      ) : null}
    </div>
  );
}
