"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { RunAgainState } from "./actions";

interface Props {
  taskId: string;
  label: string;
  /** What the run is about, for the button's accessible name. */
  subject: string;
  action: (previous: RunAgainState | null, formData: FormData) => Promise<RunAgainState>;
}

/**
 * Starts another run over an ended run's item (e.g. "Review again"), after a step to confirm in: a
 * disclosure that opens without JavaScript, with a "Yes, …" button; says plainly when one is still open.
 */
export function RunAgainForm({ taskId, label, subject, action: start }: Props) {
  const [state, action, pending] = useActionState(start, null);
  const yes = `Yes, ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
  return (
    <div className="review-again">
      <details className="confirm-step">
        <summary>
          {label}
          <span className="visually-hidden">: {subject}</span>…
        </summary>
        <form action={action} className="confirm-step-body">
          <input type="hidden" name="taskId" value={taskId} />
          <input type="hidden" name="confirm" value="yes" />
          <p>Start another run over the same item?</p>
          {/* While busy the button's name is its visible words. */}
          <button type="submit" className="secondary small" disabled={pending} aria-label={pending ? undefined : `${yes}: ${subject}`}>
            {pending ? "Starting…" : yes}
          </button>
        </form>
      </details>
      {state?.ok ? (
        <p role="status" className="muted">
          Started: <Link href={`/tasks/${state.data.taskId}`}>see the run</Link>
        </p>
      ) : state ? (
        <p role="alert" className="error-text">
          {state.error.message}
        </p>
      ) : null}
    </div>
  );
}
