"use client";

import { type FormEvent, startTransition, useActionState, useEffect, useRef } from "react";
import { PersonSearchInput } from "@/components/person-search-input";
import type { BulkOutcome } from "@/lib/bulk-waits";
import type { FoundAssignee } from "@/lib/people";
import type { ActionResult } from "@/lib/server/define-action";

type BulkResult = ActionResult<BulkOutcome & { did: "remind" | "reassign" }> | null;

/** What a bulk action did, in a sentence. */
function outcomeWords(outcome: BulkOutcome & { did: "remind" | "reassign" }): string {
  const waits = (count: number) => (count === 1 ? "1 wait" : `${count} waits`);
  const ended = outcome.notOpen > 0 ? ` ${waits(outcome.notOpen)} had ended meanwhile and ${outcome.notOpen === 1 ? "was" : "were"} left as they were.` : "";
  if (outcome.did === "remind") {
    return outcome.done === 0 ? `Nobody was reminded.${ended}` : `Reminded ${outcome.people.join(", ")} about ${waits(outcome.done)}.${ended}`;
  }
  return `${outcome.done === 0 ? "Nothing was" : `${waits(outcome.done)} ${outcome.done === 1 ? "was" : "were"}`} reassigned to ${outcome.people[0]}.${ended}`;
}

/**
 * Bulk actions on waits (the SLA page's table, a person's page): the waits ticked (their checkboxes
 * belong to this form by its id) reminded, or reassigned to one person — found by name as it is typed,
 * posted by email — at once. A plain form underneath, so it works without JavaScript.
 */
export function BulkWaitsForm({
  action,
  findPeople,
  formId,
  nothingToTick = false,
}: {
  action: (previous: BulkResult, formData: FormData) => Promise<BulkResult>;
  /** Who matches what is typed into the reassign box. */
  findPeople: (previous: null, submitted: { words: string }) => Promise<ActionResult<FoundAssignee[]>>;
  formId: string;
  /** No wait is left to tick (the last were just reassigned): only what was done is said. */
  nothingToTick?: boolean;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  const form = useRef<HTMLFormElement>(null);
  // Sent by hand so a refusal keeps the ticks and the email (React resets a form its action was given);
  // once done, the ticks are cleared. Without JavaScript the form posts as it is.
  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    startTransition(() => formAction(data));
  }
  useEffect(() => {
    if (result?.ok) form.current?.reset();
  }, [result]);
  const emailError = result && !result.ok ? result.error.fieldErrors?.assigneeEmail?.[0] : undefined;
  const otherError = result && !result.ok && !emailError ? (Object.values(result.error.fieldErrors ?? {})[0]?.[0] ?? result.error.message) : undefined;
  const outcome = result?.ok ? (
    <p className="muted" role="status" data-testid="bulk-outcome">
      {outcomeWords(result.data)}
    </p>
  ) : null;
  // Kept in its place when the list empties, so what the last action did is still said.
  if (nothingToTick) return outcome;
  return (
    <form ref={form} id={formId} action={formAction} onSubmit={send} className="bulk-waits" aria-label="The ticked waits">
      <span className="muted">With the ticked waits:</span>
      <button type="submit" name="do" value="remind" className="secondary small" disabled={pending}>
        Remind them
      </button>
      <PersonSearchInput
        name="assigneeEmail"
        label="or reassign them to"
        find={findPeople}
        className="bulk-reassign"
        invalid={Boolean(emailError)}
        describedBy={emailError ? "bulk-email-error" : undefined}
      />
      <button type="submit" name="do" value="reassign" className="secondary small" disabled={pending}>
        Reassign them
      </button>
      {emailError ? (
        <p id="bulk-email-error" className="error-text" role="alert">
          {emailError}
        </p>
      ) : null}
      {otherError ? (
        <p className="error-text" role="alert">
          {otherError}
        </p>
      ) : null}
      {outcome}
    </form>
  );
}
