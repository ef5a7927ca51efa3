"use client";

import Link from "next/link";
import { useActionState, useId } from "react";
import type { SetPasswordState } from "./actions";

/** Choose a password (twice); works without JavaScript. On success the server signs the person in and sends them home. */
export function SetPasswordForm({
  token,
  email,
  minLength,
  action: setPassword,
}: {
  token: string;
  email: string;
  minLength: number;
  action: (previous: SetPasswordState | null, formData: FormData) => Promise<SetPasswordState>;
}) {
  const [state, action, pending] = useActionState(setPassword, null);
  const id = useId();
  const passwordErrors = state?.fieldErrors?.password ?? [];
  const confirmErrors = state?.fieldErrors?.confirm ?? [];
  if (state?.linkNotValid) {
    return (
      <>
        <p role="alert" className="error-banner">
          {state.error}
        </p>
        <p>
          Ask an admin for a new invite link, or <Link href="/login">sign in</Link> if you already have a password.
        </p>
      </>
    );
  }
  return (
    <form action={action} className="stack">
      <input type="hidden" name="token" value={token} />
      {/* Lets password managers save the new password under the right account. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      {state?.error && passwordErrors.length + confirmErrors.length === 0 ? (
        <p role="alert" className="error-banner">
          {state.error}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-password`}>New password</label>
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          aria-describedby={`${id}-rule${passwordErrors.length > 0 ? ` ${id}-password-errors` : ""}`}
          aria-invalid={passwordErrors.length > 0 || undefined}
        />
        <span id={`${id}-rule`} className="question-hint">
          At least {minLength} characters.
        </span>
        {passwordErrors.length > 0 ? (
          <span id={`${id}-password-errors`} role="alert" className="error-text">
            {passwordErrors.join(" ")}
          </span>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor={`${id}-confirm`}>The same password again</label>
        <input
          id={`${id}-confirm`}
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          aria-describedby={confirmErrors.length > 0 ? `${id}-confirm-errors` : undefined}
          aria-invalid={confirmErrors.length > 0 || undefined}
        />
        {confirmErrors.length > 0 ? (
          <span id={`${id}-confirm-errors`} role="alert" className="error-text">
            {confirmErrors.join(" ")}
          </span>
        ) : null}
      </div>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? "Setting your password…" : "Set password and sign in"}
      </button>
    </form>
  );
}
