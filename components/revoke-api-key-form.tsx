"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/server/define-action";

/** What a revoke action returns: the key revoked. */
export type RevokeApiKeyState = ActionResult<{ id: string; name: string }>;

/** One live key's Revoke button; the page re-renders with the key marked revoked, which takes effect at once. */
export function RevokeApiKeyForm({
  keyId,
  name,
  action: revoke,
}: {
  keyId: string;
  name: string;
  action: (previous: RevokeApiKeyState | null, formData: FormData) => Promise<RevokeApiKeyState>;
}) {
  const [result, action, pending] = useActionState(revoke, null);
  return (
    <form action={action} className="inline-form">
      <input type="hidden" name="keyId" value={keyId} />
      <button type="submit" className="secondary small danger" disabled={pending} aria-label={pending ? undefined : `Revoke “${name}”`}>
        {pending ? "Revoking…" : "Revoke"}
      </button>
      {result && !result.ok ? (
        <span role="alert" className="error-text">
          {result.error.message}
        </span>
      ) : null}
    </form>
  );
}
