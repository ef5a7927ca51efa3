import { mayAnswer, partiesOf, type QuestionRow } from "@/db/queries/runtime-questions";
import type { NothingReason } from "@/db/schema";
import { formatAnswerText } from "@/lib/questions";
import { AGENT_ANSWER_FIELD, nothingText } from "./agent-question";
import type { RuntimeChange } from "./announce";
import type { QuestionUnavailable } from "./question-desk";

/*
 * The question desk's rules about one question as it was read, without a database: whether it can
 * still be answered or closed, and by whom; what its flow receives; what its ending announces.
 */

/** Whether the question is an agent's ask (its answer goes back to the model as words), not a flow's questionnaire. */
export function isAgentAsk(question: QuestionRow): boolean {
  return question.conversationId !== null;
}

/** Why a question can no longer be answered or closed — answered, ended with nothing, past due, or its slot closed — or undefined while it is open. */
export function unavailable(question: QuestionRow, at: Date): QuestionUnavailable | undefined {
  const slot = question.slot;
  if (question.status === "answered" || slot?.status === "finished") {
    const who = question.answeredByName ?? slot?.finishedByName ?? "someone else";
    const when = question.answeredAt ?? slot?.finishedAt ?? null;
    const by = question.answeredBy ?? slot?.finishedBy ?? null;
    return {
      status: "conflict",
      questionId: question.id,
      message: `Already answered by ${who} at ${when?.toISOString() ?? "an earlier time"}.`,
      answeredBy: by ? { id: by, name: question.answeredByName ?? slot?.finishedByName ?? null } : null,
      answeredAt: when,
      reason: null,
    };
  }
  if (question.reason || question.status === "nothing" || slot?.status === "expired" || (slot?.dueAt && slot.dueAt <= at)) {
    const reason = question.reason ?? "expired";
    const message =
      reason === "expired"
        ? `This question closed unanswered at ${slot?.dueAt?.toISOString() ?? "its due time"}.`
        : reason === "declined"
          ? `${question.declinedByName ?? "Someone it was put to"} declined this question${question.declineNote ? `: “${question.declineNote}”` : "."}`
          : `This question closed with no answer (${reason}).`;
    return { status: "conflict", questionId: question.id, message, answeredBy: null, answeredAt: null, reason };
  }
  if (!slot || slot.status !== "open") {
    return { status: "conflict", questionId: question.id, message: "This question is no longer open.", answeredBy: null, answeredAt: null, reason: null };
  }
  return undefined;
}

/** Another candidate has taken the question ("I'll take it"): only they (or the assignee) may answer it now. */
export function claimedByAnother(question: QuestionRow, by: string | undefined): QuestionUnavailable | undefined {
  const slot = question.slot;
  if (by === undefined || !slot?.claimedBy || mayAnswer(question, by)) return undefined;
  const when = slot.claimedAt ? ` at ${slot.claimedAt.toISOString()}` : "";
  return {
    status: "conflict",
    questionId: question.id,
    message: `${slot.claimedByName ?? "Another member"} took this question${when}: only they can answer it, unless they give it back.`,
    answeredBy: null,
    answeredAt: null,
    reason: null,
  };
}

/** What the flow's event receives: the typed answer for a questionnaire; for an agent's ask, the words for its call's result. */
export function payloadOf(question: QuestionRow, answer: { value: unknown } | { reason: NothingReason; note?: string | null }): unknown {
  if (isAgentAsk(question)) {
    if ("reason" in answer) return { text: nothingText(answer.reason, answer.note), questionId: question.id };
    const field = question.spec.fields[0];
    const value = (answer.value as Record<string, unknown>)[AGENT_ANSWER_FIELD];
    return { text: field ? formatAnswerText(field, value) : String(value), questionId: question.id };
  }
  if (!("reason" in answer)) return { ok: true, value: answer.value };
  return answer.note ? { ok: false, reason: answer.reason, note: answer.note } : { ok: false, reason: answer.reason };
}

/** What a question ending with nothing announces: the question closed and its slot finished, to everyone it was for. */
export function closeChanges(question: QuestionRow): RuntimeChange[] {
  const userIds = partiesOf(question);
  const slotId = question.slot?.id;
  return [
    { kind: "question-closed", taskId: question.taskId, questionId: question.id, userIds },
    { kind: "slot-finished", taskId: question.taskId, ...(slotId ? { slotId } : {}), userIds },
  ];
}
