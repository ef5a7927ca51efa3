"use client";

import { type ReactNode, useActionState } from "react";
import type { ActionResult } from "@/lib/server/define-action";

type State = ActionResult<{ message: string }> | null;

/**
 * A small form for one change (hidden ids, perhaps a few checkboxes, one button): a plain form
 * underneath, so it works without JavaScript; after the action it says what changed, or why not.
 */
export function ActionForm({
  action: change,
  hidden,
  submitLabel,
  pendingLabel,
  buttonLabel,
  buttonClassName = "secondary",
  className = "inline-form",
  children,
}: {
  action: (previous: State, formData: FormData) => Promise<State>;
  hidden: Record<string, string>;
  submitLabel: string;
  pendingLabel: string;
  /** The button's accessible name, when its text alone would be ambiguous on the page ("Remove" → "Remove Sam from finance"). */
  buttonLabel?: string;
  buttonClassName?: string;
  className?: string;
  children?: ReactNode;
}) {
  const [state, action, pending] = useActionState(change, null);
  return (
    <form action={action} className={className}>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <div className="inline-form">
        <button type="submit" className={buttonClassName} disabled={pending} aria-label={pending ? undefined : buttonLabel}>
          {pending ? pendingLabel : submitLabel}
        </button>
        {state?.ok ? (
          <span role="status" className="muted">
            {state.data.message}
          </span>
        ) : null}
        {state && !state.ok ? (
          <span role="alert" className="error-text">
            {Object.values(state.error.fieldErrors ?? {})[0]?.[0] ?? state.error.message}
          </span>
        ) : null}
      </div>
    </form>
  );
}
