"use client";

import Link from "next/link";
import { useActionState } from "react";
import { LocalTime } from "@/components/local-time";
import { SlaClock } from "@/components/sla-clock";
import type { ActionResult } from "@/lib/server/define-action";

type WakeAction = (previous: ActionResult<{ woken: boolean }> | null, formData: FormData) => Promise<ActionResult<{ woken: boolean }>>;

/** One snoozed question as "Snoozed" lists it (moments as ISO strings). */
export interface SnoozedListRow {
  id: string;
  headline: string;
  askedBy: string;
  about: string | null;
  openedAt: string;
  dueAt: string | null;
  until: string;
}

/** "Bring it back now": ends the snooze of one question (a plain form underneath, so it works without JavaScript). */
export function WakeButton({ questionId, action, label = "Bring it back now" }: { questionId: string; action: WakeAction; label?: string }) {
  const [result, wake, pending] = useActionState(action, null);
  return (
    <form action={wake} className="wake-form">
      <input type="hidden" name="questionId" value={questionId} />
      <button type="submit" className="secondary small" disabled={pending}>
        {label}
      </button>
      {result && !result.ok ? (
        <span className="error-text" role="alert">
          {result.error.message}
        </span>
      ) : null}
    </form>
  );
}

/** The questions the person snoozed, soonest back first: each with when it comes back, its clock, and a way to bring it back now. */
export function SnoozedList({ rows, label, renderedAt, wakeAction }: { rows: SnoozedListRow[]; label: string; renderedAt: string; wakeAction: WakeAction }) {
  return (
    <ul className="inbox-list" aria-label={label}>
      {rows.map((row) => (
        <li key={row.id} className="inbox-row" data-testid="snoozed-row">
          <div className="inbox-title">
            <Link href={`/questions/${row.id}`} className="inbox-question" data-inbox-link>
              {row.headline}
            </Link>
          </div>
          <div className="inbox-meta">
            <span className="inbox-asker">
              {row.askedBy}
              {row.about ? ` · ${row.about}` : ""}
            </span>
            <span>
              back <LocalTime at={row.until} /> · <SlaClock openedAt={row.openedAt} dueAt={row.dueAt} renderedAt={renderedAt} />
            </span>
            <WakeButton questionId={row.id} action={wakeAction} />
          </div>
        </li>
      ))}
    </ul>
  );
}
