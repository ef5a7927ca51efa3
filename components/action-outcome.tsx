import type { ActionResult } from "@/lib/server/define-action";

/**
 * What a form's action did, said under its button: `done` (in the person's words) as a status when it
 * worked, the action's refusal as an alert when it did not, nothing before it ran.
 */
export function ActionOutcome<Data>({ state, done }: { state: ActionResult<Data> | null; done: (data: Data) => string }) {
  if (state === null) return null;
  return state.ok ? (
    <p role="status" className="answer-taken">
      {done(state.data)}
    </p>
  ) : (
    <p role="alert" className="error-banner">
      {state.error.message}
    </p>
  );
}
