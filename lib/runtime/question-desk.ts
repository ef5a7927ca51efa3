import type { NothingReason } from "@/db/schema";
import type { QuestionPageRequest, QuestionRow } from "@/db/queries/runtime-questions";
import type { AnswerValidation, FormAnswer } from "@/lib/questions";

/** What a person submitted: a posted browser form, or text typed per field (terminal, answers file). */
export type SubmittedAnswer = { form: FormAnswer } | { text: Readonly<Record<string, string | null | undefined>> };

/** Why a submission or a closing was not taken, for a screen to say so. */
export type QuestionUnavailable =
  | { status: "not_found"; questionId: string; message: string }
  /** The answer is fine, but the workflow could not take it (its event's schema refuses the payload): nothing was committed. */
  | { status: "definition_error"; questionId: string; message: string }
  | { status: "forbidden"; questionId: string; message: string }
  | {
      status: "conflict";
      questionId: string;
      /** Says who answered and when, or that it closed with nothing and why. */
      message: string;
      answeredBy: { id: string; name: string | null } | null;
      answeredAt: Date | null;
      /** Set when the question ended with nothing. */
      reason: NothingReason | null;
    };

/** The fields' refusals, as `validateFormAnswer` words them. */
type Refused = Extract<AnswerValidation<unknown>, { ok: false }>;

/** The outcome of {@link QuestionDesk.submitAnswer}, a union on `status` for the screen to render. */
export type SubmitAnswerResult =
  | { status: "answered"; questionId: string; value: unknown }
  | ({
      status: "refused";
      questionId: string;
      /** The attempt the person is about to make: "attempt 2 of 3". */
      attempt: string;
      attemptsLeft: number;
      /** Whether this refusal used an attempt: one that answered nothing at all does not. */
      counted: boolean;
      /** What was submitted, as raw values, to hand back beside the refusals. */
      raw: Record<string, unknown>;
    } & Omit<Refused, "ok">)
  | ({ status: "closed"; questionId: string; reason: "refused"; raw: Record<string, unknown> } & Omit<Refused, "ok">)
  /**
   * Typed text named a field the question does not have (a misspelt path from an answers file or the
   * API): nothing was judged and no attempt counted, so a typo never costs the person an attempt,
   * nor is an optional field's answer silently dropped.
   */
  | { status: "invalid_input"; questionId: string; message: string; path: string }
  | QuestionUnavailable;

/** The outcome of {@link QuestionDesk.closeWithNothing}. */
export type CloseQuestionResult = { status: "closed"; questionId: string; reason: NothingReason } | QuestionUnavailable;

/** The outcome of {@link QuestionDesk.decline}: closed with nothing (`declined`), or why not; a note too long is `invalid_input`. */
export type DeclineQuestionResult =
  | { status: "closed"; questionId: string; reason: "declined"; note: string | null }
  | { status: "invalid_input"; questionId: string; message: string; path: "note" }
  | QuestionUnavailable;

/** The question API a surface (the inbox, the terminal) drives; part of the runtime. */
export interface QuestionDesk {
  /**
   * Judges a submission with the flow's own schema (from the workflow in code, never from the
   * client). Refused: nothing of the answer is committed, one attempt is counted (none when nothing
   * at all was answered), and the refusals
   * come back by field path with the next attempt's label — or, when the attempts ran out, the
   * question closes and the flow gets nothing (`refused`). Accepted: deposited exactly once.
   */
  submitAnswer(input: { questionId: string; by: string; answer: SubmittedAnswer }): Promise<SubmitAnswerResult>;
  /**
   * Ends an open question with nothing, now: the surface was told its person is away, found nobody
   * at the terminal, or its asker withdrew it (`cancelled`). The flow gets nothing with that reason;
   * it is never recorded as the person's decision. `by` (when given) must be someone the question is for.
   */
  closeWithNothing(input: { questionId: string; reason: "away" | "non-interactive" | "cancelled"; by?: string }): Promise<CloseQuestionResult>;
  /**
   * "I can't answer this": a person the question is for ends it with nothing, reason `declined`, and
   * may leave a note the asker receives with it (trimmed; blank is none; at most
   * {@link DECLINE_NOTE_MAX_LENGTH} characters). The question ends for everyone it was put to. A
   * question another candidate has taken is theirs to decline. Declining one already declined by the
   * same person is answered alike.
   */
  decline(input: { questionId: string; by: string; note?: string | null }): Promise<DeclineQuestionResult>;
  /** The questions a person may answer now, soonest due first (one indexed query): all, or one page. */
  questionsFor(userId: string, page?: QuestionPageRequest): Promise<QuestionRow[]>;
  /** A question with its slot, if it is for this person (or they answered or declined it); otherwise null. */
  questionFor(questionId: string, userId: string): Promise<QuestionRow | null>;
}
