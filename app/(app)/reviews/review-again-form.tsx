"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { ReviewAgainState } from "./actions";

interface Props {
  claimId: string;
  claimTitle: string;
  action: (previous: ReviewAgainState | null, formData: FormData) => Promise<ReviewAgainState>;
}

/** Starts another review of a claim whose last review has ended; says plainly when one is still open. */
export function ReviewAgainForm({ claimId, claimTitle, action: start }: Props) {
  const [state, action, pending] = useActionState(start, null);
  return (
    <form action={action} className="review-again">
      <input type="hidden" name="claimId" value={claimId} />
      <button type="submit" className="link-button" disabled={pending} aria-label={`Review “${claimTitle}” again`}>
        {pending ? "Starting…" : "Review again"}
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
