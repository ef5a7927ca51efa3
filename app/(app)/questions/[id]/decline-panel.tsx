"use client";

import { useActionState, useEffect } from "react";
import type { ActionResult } from "@/lib/server/define-action";
import type { DeclineOutcome } from "./answer-state";
import { markJustAnswered } from "./keep-going";

/**
 * "I can't answer this…": a disclosure beside the answer (it opens without JavaScript) with an
 * optional note for whoever asked and the one button that declines. Declining ends the question for
 * everyone it was put to; the asker gets no answer, reason `declined`, with the note.
 */
export function DeclinePanel({
  questionId,
  sharedWith,
  noteMaxLength,
  action,
}: {
  questionId: string;
  /** How many others it was put to besides this person (declining ends it for them too). */
  sharedWith: number;
  noteMaxLength: number;
  action: (previous: ActionResult<DeclineOutcome> | null, formData: FormData) => Promise<ActionResult<DeclineOutcome>>;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  // Declined: if the same run asks this person again, the page follows it there.
  useEffect(() => {
    if (state?.ok) markJustAnswered(questionId);
  }, [state, questionId]);
  const refusedNote = state && !state.ok ? state.error.fieldErrors?.note?.[0] : undefined;
  return (
    <details className="confirm-step decline-step" open={state !== null && !state.ok ? true : undefined} data-testid="decline-panel">
      <summary data-key="d" data-key-label="Decline: say you can't answer it">
        I can&rsquo;t answer this…
      </summary>
      <form action={formAction} className="confirm-step-body">
        <input type="hidden" name="questionId" value={questionId} />
        <p>
          Whoever asked is told you cannot answer it and gets no answer{sharedWith > 0 ? `; the question closes for the ${sharedWith === 1 ? "other person" : `${sharedWith} others`} it was put to as well` : ""}.
        </p>
        <div className="field">
          <label htmlFor="decline-note">A note for whoever asked (optional)</label>
          <textarea
            id="decline-note"
            name="note"
            rows={3}
            maxLength={noteMaxLength}
            placeholder="Why, or who could answer it instead"
            aria-invalid={refusedNote ? true : undefined}
            aria-describedby={refusedNote ? "decline-note-error" : undefined}
          />
          {refusedNote ? (
            <p id="decline-note-error" className="error-text">
              {refusedNote}
            </p>
          ) : null}
        </div>
        <button type="submit" className="secondary danger" disabled={pending}>
          {pending ? "Declining…" : "Decline the question"}
        </button>
        {state && !state.ok && !refusedNote ? (
          <p role="alert" className="error-banner">
            {state.error.message}
          </p>
        ) : null}
      </form>
    </details>
  );
}
