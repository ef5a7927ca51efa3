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

/** Starts another run over an ended run's item (e.g. "Review again"); says plainly when one is still open. */
export function RunAgainForm({ taskId, label, subject, action: start }: Props) {
  const [state, action, pending] = useActionState(start, null);
  return (
    <form action={action} className="review-again">
      <input type="hidden" name="taskId" value={taskId} />
      <button type="submit" className="link-button" disabled={pending} aria-label={`${label}: ${subject}`}>
        {pending ? "Starting…" : label}
      </button>
      {state?.ok ? (
        <p role="status" className="muted">
          Started: <Link href={`/tasks/${state.data.taskId}`}>see the run</Link>
        </p>
      ) : state ? (
        <p role="alert" className="error-text">
          {state.error.message}
        </p>
      ) : null}
    </form>
  );
}
