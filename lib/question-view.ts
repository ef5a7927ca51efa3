import type { Db } from "@/db/client";
import { findReassignmentAway, findRunForTask, listConversationMessages } from "@/db/queries/inbox";
import { type ConversationLine, readableConversation } from "@/lib/conversation-view";
import type { NothingReason, RunStatus } from "@/db/schema";

/** Why a question got no answer, in the words screens finish "closed without an answer: …" with. */
export const NOTHING_REASON_WORDS: Readonly<Record<NothingReason, string>> = {
  refused: "the answers given were refused until the attempts ran out",
  away: "the person asked was away",
  "non-interactive": "nobody was at the terminal",
  expired: "nobody answered before the deadline",
  cancelled: "whoever asked withdrew the question",
  unavailable: "the person asked is no longer in Parley",
};

/** Each reason as a short heading, for counts and lists ("Expired: 3"). */
export const NOTHING_REASON_LABELS: Readonly<Record<NothingReason, string>> = {
  expired: "Expired",
  refused: "Refused until the attempts ran out",
  away: "Away",
  unavailable: "No longer in Parley",
  "non-interactive": "Nobody at the terminal",
  cancelled: "Withdrawn",
};

/** {@link NOTHING_REASON_WORDS} for a reason read from storage (an unknown one reads as `fallback`). */
export function nothingReasonWords(reason: string | null | undefined, fallback: string): string {
  return reason && Object.hasOwn(NOTHING_REASON_WORDS, reason) ? NOTHING_REASON_WORDS[reason as NothingReason] : fallback;
}

/**
 * Why a question closed without an answer, as the person asked reads it: a question withdrawn because
 * an operator cancelled its run says so ("Withdrawn: the run was cancelled…"); any other reason is
 * {@link NOTHING_REASON_WORDS}' (an unknown one, `fallback`).
 */
export function closedWithoutAnswerText(reason: string | null | undefined, runStatus: RunStatus | undefined, fallback: string): string {
  if (reason === "cancelled" && runStatus === "cancelled") return `${NOTHING_REASON_LABELS.cancelled}: the run was cancelled; this question was withdrawn.`;
  return `This question closed without an answer: ${nothingReasonWords(reason, fallback)}.`;
}

/** What the question page shows beside a question: where its run stands, and the agent's conversation. */
export interface QuestionRun {
  run: { workflow: string; state: string; status: RunStatus } | undefined;
  conversation: ConversationLine[];
}

/** Reads where a question's run stands and, when an agent asked it, that agent's conversation so far. */
export async function loadQuestionRun(db: Db, question: { taskId: string; conversationId: string | null }): Promise<QuestionRun> {
  const [run, messages] = await Promise.all([
    findRunForTask(db, question.taskId),
    question.conversationId ? listConversationMessages(db, question.conversationId) : Promise.resolve([]),
  ]);
  return { run, conversation: readableConversation(messages) };
}

/**
 * Who has a question now that was reassigned away from `userId`, and since when; undefined when it
 * was never theirs. Their old link then says where it went instead of "not found".
 */
export function reassignedAwayFrom(db: Db, questionId: string, userId: string): Promise<{ toName: string | null; at: Date } | undefined> {
  return findReassignmentAway(db, questionId, userId);
}
