import type { Db } from "@/db/client";
import { snoozedUntil, snoozeQuestion, wakeQuestion } from "@/db/queries/question-snoozes";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { SNOOZE_CHOICES, type SnoozeChoice } from "@/lib/snooze-choices";

export { SNOOZE_CHOICE_KEYS, SNOOZE_CHOICES, type SnoozeChoice } from "@/lib/snooze-choices";

/**
 * Snoozing a question: the person who may answer it puts it out of their inbox's sight for a while.
 * Its deadline does not move and nobody else's inbox changes; it comes back by itself.
 */

const NOT_THEIRS = "There is no such open question of yours to snooze: it may have been answered or closed, or it is not yours to answer.";

/** Snoozes `questionId` for `userId` for the chosen while from `now`; returns when it comes back. */
export async function snooze(db: Db, input: { questionId: string; userId: string; choice: SnoozeChoice; now: Date }): Promise<Date> {
  if (!isUuid(input.questionId)) throw new AppError("not_found", NOT_THEIRS);
  const until = await snoozeQuestion(db, {
    questionId: input.questionId,
    userId: input.userId,
    until: new Date(input.now.getTime() + SNOOZE_CHOICES[input.choice].ms),
    at: input.now,
  });
  if (!until) throw new AppError("not_found", NOT_THEIRS);
  return until;
}

/** Brings `questionId` back into `userId`'s inbox now; whether it had been out of sight. */
export async function wake(db: Db, input: { questionId: string; userId: string; now: Date }): Promise<boolean> {
  if (!isUuid(input.questionId)) return false;
  return wakeQuestion(db, input);
}

/** Until when `userId` has `questionId` snoozed, if still to come (null for anything that is not a question id). */
export async function snoozeOf(db: Db, questionId: string, userId: string, now: Date): Promise<Date | null> {
  return isUuid(questionId) ? snoozedUntil(db, questionId, userId, now) : null;
}
