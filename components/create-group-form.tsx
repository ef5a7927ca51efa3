"use client";

import { useActionState, useId } from "react";
import type { ActionResult } from "@/lib/server/define-action";

/** What the create-group action returns, with the name typed to show again beside a refusal. */
export type CreateGroupState = ActionResult<{ message: string }> & { values: { name: string } };

/** Names and makes a group; a taken or empty name is refused beside the field, with what was typed. */
export function CreateGroupForm({
  nameMaxLength,
  action: create,
}: {
  nameMaxLength: number;
  action: (previous: CreateGroupState | null, formData: FormData) => Promise<CreateGroupState>;
}) {
  const [state, action, pending] = useActionState(create, null);
  const id = useId();
  const refusal = state && !state.ok ? state.error : null;
  const nameErrors = refusal?.fieldErrors?.name ?? [];
  return (
    <form action={action} className="key-form" aria-label="New group">
      {refusal && nameErrors.length === 0 ? (
        <p role="alert" className="error-banner">
          {refusal.message}
        </p>
      ) : null}
      {state?.ok ? (
        <p role="status" className="muted">
          {state.data.message}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <p id={`${id}-hint`} className="question-hint">
          Lower-case, as flows and the API name it: e.g. finance or on-call.
        </p>
        <div className="key-form-row">
          <input
            id={`${id}-name`}
            name="name"
            required
            maxLength={nameMaxLength}
            autoComplete="off"
            aria-describedby={`${id}-hint${nameErrors.length > 0 ? ` ${id}-errors` : ""}`}
            aria-invalid={nameErrors.length > 0 || undefined}
            defaultValue={state?.values.name ?? ""}
            key={JSON.stringify(state?.values ?? null)}
          />
          <button type="submit" className="primary" disabled={pending}>
            {pending ? "Creating…" : "Create group"}
          </button>
        </div>
        {nameErrors.length > 0 ? (
          <p id={`${id}-errors`} role="alert" className="error-text">
            {nameErrors.join(" ")}
          </p>
        ) : null}
      </div>
    </form>
  );
}
