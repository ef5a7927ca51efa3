"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { FollowAnswerLinkState } from "./actions";

/** The one button that follows an answer link (a form, so it works without JavaScript). */
export function FollowAnswerLinkForm({ token, action }: { token: string; action: (previous: FollowAnswerLinkState | null, formData: FormData) => Promise<FollowAnswerLinkState> }) {
  const [state, follow, pending] = useActionState(action, null);
  if (state) {
    return (
      <>
        <p role="alert" className="error-banner">
          {state.message}
        </p>
        <p>
          <Link href={state.signInHref}>Sign in</Link>
        </p>
      </>
    );
  }
  return (
    <form action={follow}>
      <input type="hidden" name="token" value={token} />
      <button type="submit" className="primary wide" disabled={pending}>
        Open the question
      </button>
    </form>
  );
}
