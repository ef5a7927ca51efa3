"use client";

import { useActionState, useId } from "react";
import { InviteLinkShown } from "./invite-link-shown";
import type { ReinviteState } from "./person-forms-state";

/** Makes a new invite link for a person and shows it once; their earlier links stop working. */
export function ReinviteForm({ personId, action: reinvite }: { personId: string; action: (previous: ReinviteState | null, formData: FormData) => Promise<ReinviteState> }) {
  const [state, action, pending] = useActionState(reinvite, null);
  const id = useId();
  return (
    <>
      {state?.ok ? <InviteLinkShown invite={state.data} headingId={`${id}-created`} /> : null}
      <form action={action} className="inline-form">
        <input type="hidden" name="personId" value={personId} />
        <button type="submit" className="secondary" disabled={pending}>
          {pending ? "Making…" : "Make a new invite link"}
        </button>
        {state && !state.ok ? (
          <span role="alert" className="error-text">
            {state.error.message}
          </span>
        ) : null}
      </form>
    </>
  );
}
