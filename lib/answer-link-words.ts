import type { AnswerLinkState } from "@/lib/answer-links";

/** Why an answer link can't be followed, in the person's words, and where to sign in instead. */
export function answerLinkRefusal(state: Exclude<AnswerLinkState, { status: "valid" }>): { message: string; signInHref: string } {
  const signInHref = state.status === "unknown" ? "/login" : `/login?callbackUrl=${encodeURIComponent(`/questions/${state.questionId}`)}`;
  switch (state.status) {
    case "used":
      return { message: "This link was already used: each link works once. Sign in to see the question.", signInHref };
    case "expired":
      return { message: "This link has expired. Sign in to answer the question, if it is still open.", signInHref };
    case "unknown":
      return { message: "This link is not valid: check that it was copied whole, or sign in.", signInHref };
  }
}
