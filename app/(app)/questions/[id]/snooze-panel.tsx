"use client";

import { useActionState } from "react";
import { LocalTime } from "@/components/local-time";
import type { ActionResult } from "@/lib/server/define-action";
import { SNOOZE_CHOICES, SNOOZE_CHOICE_KEYS } from "@/lib/snooze-choices";

type Action<T> = (previous: ActionResult<T> | null, formData: FormData) => Promise<ActionResult<T>>;

/**
 * "Snooze…": a disclosure (it opens without JavaScript) that puts the question out of this person's
 * inbox for a while, or — while it is snoozed — says until when, with a button to bring it back now.
 */
export function SnoozePanel({
  questionId,
  snoozedUntil,
  dueAt,
  snoozeAction,
  wakeAction,
}: {
  questionId: string;
  /** ISO moments: when its snooze ends (null: not snoozed), and its deadline. */
  snoozedUntil: string | null;
  dueAt: string | null;
  snoozeAction: Action<never>;
  wakeAction: Action<{ woken: boolean }>;
}) {
  const [snoozed, snooze, snoozing] = useActionState(snoozeAction, null);
  const [woken, wakeUp, waking] = useActionState(wakeAction, null);
  const refusal = (snoozed && !snoozed.ok ? snoozed.error : null) ?? (woken && !woken.ok ? woken.error : null);
  const problem = refusal ? (
    <p className="error-text" role="alert">
      {refusal.fieldErrors?.for?.[0] ?? refusal.message}
    </p>
  ) : null;
  if (snoozedUntil) {
    return (
      <form action={wakeUp} className="snoozed-line" data-testid="snoozed">
        <input type="hidden" name="questionId" value={questionId} />
        <span>
          Snoozed: out of your inbox until <LocalTime at={snoozedUntil} />. Its deadline has not moved.
        </span>{" "}
        <button type="submit" className="secondary small" disabled={waking}>
          Bring it back now
        </button>
        {problem}
      </form>
    );
  }
  return (
    <details className="confirm-step snooze-step" data-testid="snooze-panel" open={refusal ? true : undefined}>
      <summary data-key="s" data-key-label="Snooze: out of your inbox for a while">
        Snooze…
      </summary>
      <form action={snooze} className="confirm-step-body">
        <input type="hidden" name="questionId" value={questionId} />
        <fieldset className="snooze-choices">
          <legend>Out of your inbox, back by itself</legend>
          {SNOOZE_CHOICE_KEYS.map((key) => (
            <label key={key}>
              <input type="radio" name="for" value={key} defaultChecked={key === "3h"} /> {SNOOZE_CHOICES[key].label}
            </label>
          ))}
        </fieldset>
        <p className="muted small">
          Its deadline does not move
          {dueAt ? (
            <>
              {" "}
              (due <LocalTime at={dueAt} />)
            </>
          ) : null}
          , and everyone else it is put to still sees it.
        </p>
        <button type="submit" className="secondary" disabled={snoozing}>
          {snoozing ? "Snoozing…" : "Snooze"}
        </button>
        {problem}
      </form>
    </details>
  );
}
