"use client";

import { useActionState } from "react";
import { ActionOutcome } from "@/components/action-outcome";
import type { CancelRunState } from "./actions";

interface Props {
  taskId: string;
  /** Whether a question of the run is waiting on a person now (it will be withdrawn). */
  waitingOn: string | null;
  action: (previous: CancelRunState | null, formData: FormData) => Promise<CancelRunState>;
}

/**
 * "Cancel this run…", a step to confirm in: a disclosure that opens without JavaScript, saying what
 * cancelling does, with the one button that does it. The server takes only a confirmed cancel.
 */
export function CancelRunForm({ taskId, waitingOn, action: cancel }: Props) {
  const [state, action, pending] = useActionState(cancel, null);
  return (
    <details className="confirm-step" open={state !== null && !state.ok ? true : undefined}>
      <summary>Cancel this run…</summary>
      <form action={action} className="confirm-step-body">
        <input type="hidden" name="taskId" value={taskId} />
        <input type="hidden" name="confirm" value="yes" />
        <p>
          Cancelling stops the run for good: nothing of it runs again.{" "}
          {waitingOn ? (
            <>
              Its open question, waiting on <strong>{waitingOn}</strong>, is withdrawn, and whoever asked is told it was cancelled.
            </>
          ) : (
            "Any question it has open is withdrawn, and whoever asked is told it was cancelled."
          )}{" "}
          This cannot be undone.
        </p>
        <button type="submit" className="secondary danger" disabled={pending}>
          {pending ? "Cancelling…" : "Yes, cancel this run"}
        </button>
        <ActionOutcome
          state={state}
          done={({ withdrawn }) => `Cancelled${withdrawn > 0 ? `: ${withdrawn === 1 ? "its question was" : `${withdrawn} questions were`} withdrawn` : ""}.`}
        />
      </form>
    </details>
  );
}
