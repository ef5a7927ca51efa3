"use client";

import { useActionState } from "react";
import type { ActionResult } from "@/lib/server/define-action";

type OpenResult = ActionResult<{ href: string }> | null;

/**
 * One notification in the list, as a button that opens it: the action marks it read and takes the
 * person to its question. A form, so it works without JavaScript too.
 */
export function OpenNotificationForm({
  notificationId,
  title,
  headline,
  unread,
  action,
}: {
  notificationId: string;
  title: string;
  headline: string | null;
  unread: boolean;
  action: (previous: OpenResult, formData: FormData) => Promise<OpenResult>;
}) {
  const [state, open, pending] = useActionState(action, null);
  return (
    <form action={open} className="notification-open">
      <input type="hidden" name="notificationId" value={notificationId} />
      <button type="submit" className="notification-button" disabled={pending}>
        <span className="notification-title">
          {unread ? <span className="badge amber">New</span> : null} {title}
        </span>
        {headline ? <span className="notification-headline">{headline}</span> : null}
      </button>
      {state && !state.ok ? (
        <p role="alert" className="error-text">
          {state.error.message}
        </p>
      ) : null}
    </form>
  );
}
