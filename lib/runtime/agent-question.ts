import { z } from "zod";
import type { NothingReason } from "@/db/schema";
import { QUESTION_SPEC_VERSION, type QuestionSpec } from "@/lib/questions/question-spec";

/** The one field an agent's ask is: its answer, in the person's words (or one of its options). */
export const AGENT_ANSWER_FIELD = "answer";

/**
 * An agent's ask as a question spec: one text field, offering the agent's options when it gave any.
 * The person picks one of them or writes their own answer instead; the agent gets the words either
 * way (an option's own text, or the person's).
 */
export function agentAskSpec(text: string, options?: readonly string[]): QuestionSpec {
  const offered = options && options.length > 0 ? options : undefined;
  return {
    version: QUESTION_SPEC_VERSION,
    fields: [
      {
        path: AGENT_ANSWER_FIELD,
        name: AGENT_ANSWER_FIELD,
        question: text,
        kind: "text",
        ...(offered ? { options: offered.map((option) => ({ value: option, label: option })) } : {}),
        optional: false,
        nullable: false,
        hasDefault: false,
        hints: {},
      },
    ],
    groups: [],
    crossFieldChecks: false,
  };
}

/** The question text and options of an agent's ask, read back from its spec. */
export function agentAskText(spec: QuestionSpec): { text: string; options?: string[] } {
  const field = spec.fields[0];
  const options = field?.options?.map((option) => String(option.value));
  return { text: field?.question ?? "", ...(options && options.length > 0 ? { options } : {}) };
}

/**
 * The schema that judges an answer to an agent's ask: words, one of its options or the person's own
 * instead. (An ask stored by older code as a choice among its options is still asked as that choice.)
 */
export function agentAskSchema(spec: QuestionSpec) {
  return agentAskText(spec).options ? OWN_OR_OFFERED_ANSWER : FREE_TEXT_ANSWER;
}

/** The schema of every ask without options, made once. */
const FREE_TEXT_ANSWER = z.object({ [AGENT_ANSWER_FIELD]: z.string().trim().min(1, "Please write an answer.") });
/** The schema of every ask with options, made once: a pick, or the person's own answer. */
const OWN_OR_OFFERED_ANSWER = z.object({ [AGENT_ANSWER_FIELD]: z.string().trim().min(1, "Pick one of the answers offered, or write your own.") });

/** What an agent's ask call gets as its result when nobody answered: marked as no answer, with why. */
export function nothingText(reason: NothingReason, note?: string | null): string {
  const why: Record<NothingReason, string> = {
    refused: "the person's answers were refused until the attempts ran out",
    away: "the person is away",
    "non-interactive": "nobody was at the terminal",
    expired: "nobody answered in time",
    cancelled: "the question was withdrawn",
    unavailable: "the person is no longer available",
    declined: "the person declined to answer it",
  };
  const told = note ? ` Their note: ${note}` : "";
  return `[no answer — reason: ${reason}] Nobody answered this question: ${why[reason]}.${told}`;
}
