import type { QuestionFormState } from "@/components/questions/question-form-state";
import type { ErrorCode } from "@/lib/errors";

/** What the answer action hands back: the form's refusals, or how the submission ended. */
export interface AnswerState extends QuestionFormState {
  /** Set when the submission ended the form: taken, closed after the last attempt, or not possible. */
  outcome?: "answered" | "closed" | "unavailable";
  /** What to tell the person about that outcome, in their terms. */
  message?: string;
  /** Why an `unavailable` submission was not taken, for callers that branch on it (never on the message). */
  code?: ErrorCode;
}

/** What taking a question (or giving it back) did: whether this person now holds it, in their words. */
export interface ClaimOutcome {
  held: boolean;
  message: string;
}

/** What declining a question did, in the person's words. */
export interface DeclineOutcome {
  message: string;
}
