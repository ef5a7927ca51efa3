"use client";

import { useActionState } from "react";
import { ActionOutcome } from "@/components/action-outcome";
import type { RetryRunState } from "./actions";

interface Props {
  taskId: string;
  action: (previous: RetryRunState | null, formData: FormData) => Promise<RetryRunState>;
}

/** The retry button for a run that failed on a model error; says plainly when the retry is refused. */
export function RetryForm({ taskId, action: retry }: Props) {
  const [state, action, pending] = useActionState(retry, null);
  return (
    <form action={action} className="retry-form">
      <input type="hidden" name="taskId" value={taskId} />
      <button type="submit" className="primary" disabled={pending}>
        {pending ? "Retrying…" : "Retry the run"}
      </button>
      <ActionOutcome state={state} done={() => "Queued again: the run carries on."} />
    </form>
  );
}
