import { DEFAULT_ATTEMPTS } from "../../db/types/attempts";

/** How many refused submissions a question takes before it ends, unless the question says otherwise. */
export { DEFAULT_ATTEMPTS };

/**
 * The attempts bookkeeping of one question: plain data, stored with the question. `refused`
 * counts the submissions the schema refused so far.
 */
export interface Attempts {
  readonly allowed: number;
  readonly refused: number;
}

/**
 * After a refused submission: either the person may try again (`again`, with the label of the
 * attempt they are about to make), or the attempts are used up and the flow gets nothing with
 * reason `refused`.
 */
export type AttemptOutcome =
  | { status: "again"; attempts: Attempts; label: string }
  | { status: "refused"; attempts: Attempts; reason: "refused" };

/** The number of attempts is not a whole number of at least one. */
export class InvalidAttemptsError extends Error {
  /** Stable code; branch on this, never on the message text. */
  readonly code = "invalid_attempts" as const;

  constructor(allowed: unknown) {
    super(`Attempts must be a whole number of at least 1, not ${String(allowed)}.`);
    this.name = "InvalidAttemptsError";
  }
}

/** Fresh bookkeeping for a question allowing `allowed` submissions (default {@link DEFAULT_ATTEMPTS}). */
export function startAttempts(allowed: number = DEFAULT_ATTEMPTS): Attempts {
  if (!Number.isSafeInteger(allowed) || allowed < 1) throw new InvalidAttemptsError(allowed);
  return { allowed, refused: 0 };
}

/** Count one refused submission and say whether the person may try again. */
export function recordRefusal(attempts: Attempts): AttemptOutcome {
  const next: Attempts = { allowed: attempts.allowed, refused: Math.min(attempts.refused + 1, attempts.allowed) };
  if (next.refused >= next.allowed) return { status: "refused", attempts: next, reason: "refused" };
  return { status: "again", attempts: next, label: attemptLabel(next) };
}

/** The submissions still allowed. */
export function attemptsLeft(attempts: Attempts): number {
  return Math.max(attempts.allowed - attempts.refused, 0);
}

/** "attempt 2 of 3": the attempt about to be made. */
export function attemptLabel(attempts: Attempts): string {
  return `attempt ${Math.min(attempts.refused + 1, attempts.allowed)} of ${attempts.allowed}`;
}

/** Said before the last attempt, on every surface: the next refusal ends the question for good. */
export const LAST_ATTEMPT_WARNING = "This is the last attempt: if this answer is refused too, the question closes without an answer.";
