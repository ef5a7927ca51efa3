"use client";

import Link from "next/link";
import { useActionState } from "react";
import type { ActionResult } from "@/lib/server/define-action";

type ReassignResult = ActionResult<{ slotId: string; assigneeName: string }> | null;
type RemindResult = ActionResult<{ people: string[]; queued: number }> | null;

/**
 * An open wait's admin actions: reassign it to someone else, and remind whoever it waits on. The
 * list of people to reassign to is offered in one row at a time (`assignees` given), the one whose
 * "Reassign…" link was followed: with a thousand people, a list in every row would make the page
 * megabytes long.
 */
export function SlotActions({
  slotId,
  questionId,
  label,
  assigneeId,
  assignees,
  reassignHref,
  reassign,
  remind,
}: {
  slotId: string;
  questionId: string | null;
  /** What the wait is, for the controls' accessible names. */
  label: string;
  assigneeId: string | null;
  /** Who it may be reassigned to, in the row being reassigned; undefined in the others. */
  assignees?: { id: string; name: string }[];
  /** Where the "Reassign…" link goes: this page with this row chosen. */
  reassignHref: string;
  reassign: (previous: ReassignResult, formData: FormData) => Promise<ReassignResult>;
  remind: (previous: RemindResult, formData: FormData) => Promise<RemindResult>;
}) {
  const [reassigned, reassignAction, reassigning] = useActionState(reassign, null);
  const [reminded, remindAction, reminding] = useActionState(remind, null);
  const others = assignees?.filter((person) => person.id !== assigneeId);
  return (
    <div className="slot-actions">
      {others ? (
        <form action={reassignAction} className="inline-form">
          <input type="hidden" name="slotId" value={slotId} />
          <select name="assigneeId" aria-label={`Reassign “${label}” to`} defaultValue="" required>
            <option value="" disabled>
              Reassign to…
            </option>
            {others.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
              </option>
            ))}
          </select>
          <button type="submit" className="secondary small" disabled={reassigning}>
            Reassign
          </button>
        </form>
      ) : (
        <Link href={reassignHref} scroll={false} aria-label={`Reassign “${label}”…`}>
          Reassign…
        </Link>
      )}
      {questionId ? (
        <form action={remindAction} className="inline-form">
          <input type="hidden" name="questionId" value={questionId} />
          <button type="submit" className="secondary small" disabled={reminding} aria-label={`Remind about “${label}”`}>
            Remind
          </button>
        </form>
      ) : null}
      {reassigned ? (
        <span role={reassigned.ok ? "status" : "alert"} className={reassigned.ok ? "muted" : "error-text"}>
          {reassigned.ok ? `Reassigned to ${reassigned.data.assigneeName}.` : reassigned.error.message}
        </span>
      ) : null}
      {reminded ? (
        <span role={reminded.ok ? "status" : "alert"} className={reminded.ok ? "muted" : "error-text"}>
          {reminded.ok
            ? `Reminded ${reminded.data.people.join(", ")} in Parley${
                reminded.data.queued > 0
                  ? ` and by ${reminded.data.queued === 1 ? "1 notifier" : `${reminded.data.queued} notifiers`}.`
                  : " (no email or webhook is configured, so only there)."
              }`
            : reminded.error.message}
        </span>
      ) : null}
    </div>
  );
}
