"use client";

import { useActionState } from "react";
import { type SignInState, signInWithPassword } from "./actions";

/** Email and password; works without JavaScript, and keeps the email after a failed attempt. */
export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInWithPassword, { email: "" });
  return (
    <form action={action} className="stack" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      {state.error ? (
        <p role="alert" className="error-banner">
          {state.error}
        </p>
      ) : null}
      <label className="field">
        <span>Email</span>
        <input name="email" type="email" autoComplete="username" required defaultValue={state.email} key={state.email} />
      </label>
      <label className="field">
        <span>Password</span>
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
