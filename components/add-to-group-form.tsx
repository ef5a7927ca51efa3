"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/server/define-action";

type State = ActionResult<{ message: string }> | null;

/**
 * Adds one person a search found to one group: a plain form underneath (it works without JavaScript).
 * Once they are added it says so, and stays saying so when the page is read again with them in the
 * group; someone already in it is shown as such, with no button.
 */
export function AddToGroupForm({
  action: add,
  groupId,
  groupName,
  personId,
  personName,
  inGroup,
}: {
  action: (previous: State, formData: FormData) => Promise<State>;
  groupId: string;
  groupName: string;
  personId: string;
  personName: string;
  inGroup: boolean;
}) {
  const [state, action, pending] = useActionState(add, null);
  const added = state?.ok === true;
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="groupId" value={groupId} />
      <input type="hidden" name="userId" value={personId} />
      {added ? null : inGroup ? (
        <span className="muted">Already in {groupName}</span>
      ) : (
        <button type="submit" className="secondary small" disabled={pending} aria-label={pending ? undefined : `Add ${personName} to ${groupName}`}>
          {pending ? "Adding…" : "Add"}
        </button>
      )}
      <span role="status" className="muted">
        {state?.ok ? state.data.message : null}
      </span>
      {state && !state.ok ? (
        <span role="alert" className="error-text">
          {Object.values(state.error.fieldErrors ?? {})[0]?.[0] ?? state.error.message}
        </span>
      ) : null}
    </form>
  );
}
