import type { Db } from "@/db/client";
import { openQuestionsOfSlots } from "@/db/queries/sla";
import { findUserByEmail } from "@/db/queries/users";
import { AppError } from "@/lib/errors";
import { remindAboutQuestion, type RemindOptions } from "@/lib/notifications/outbox";
import type { Runtime } from "@/lib/runtime";

/**
 * The SLA page's bulk actions: many open waits reminded, or reassigned, at once. Each wait is still
 * its own conditional update (the Reassign and Remind of one row, one after the other), recorded as
 * that one would be; a wait that ended meanwhile is counted, not failed.
 */

/** At most this many waits in one bulk action (the SLA page shows 20 a page). */
export const BULK_WAITS_MAX = 50;

/** What a bulk action did: how many waits it changed, and how many had ended before it got to them. */
export interface BulkOutcome {
  done: number;
  notOpen: number;
  /** Whom they went to (reassign) or who was reminded (remind), each once. */
  people: string[];
}

/** Reminds whoever each open wait of `slotIds` waits on, in the app and by every configured notifier. */
export async function remindWaits(db: Db, slotIds: readonly string[], options: RemindOptions): Promise<BulkOutcome> {
  const questions = await openQuestionsOfSlots(db, slotIds);
  const people = new Set<string>();
  let done = 0;
  for (const { questionId } of questions) {
    const result = await remindAboutQuestion(db, questionId, options);
    if (result.status === "nothing_to_send") continue;
    done += 1;
    for (const person of result.people) people.add(person);
  }
  return { done, notOpen: slotIds.length - done, people: [...people] };
}

/** Moves each open wait of `slotIds` to the assignee whose email is `email` (refused when there is no such assignee). */
export async function reassignWaits(
  db: Db,
  runtime: Pick<Runtime, "reassignSlot">,
  input: { slotIds: readonly string[]; email: string; by: string },
): Promise<BulkOutcome> {
  const person = await findUserByEmail(db, input.email.trim().toLowerCase());
  if (!person || !person.roles.includes("assignee") || person.deactivatedAt) {
    throw new AppError("not_found", "Nobody who answers questions has this email: check it on Admin → People.", { path: "assigneeEmail" });
  }
  let done = 0;
  for (const slotId of input.slotIds) {
    const result = await runtime.reassignSlot({ slotId, to: person.id, by: input.by });
    if (result.status !== "not_open") done += 1;
  }
  return { done, notOpen: input.slotIds.length - done, people: [person.name] };
}
