import type { ApiAskRecord } from "@/db/queries/api-asks";
import { FREE_TEXT_FIELD } from "./api-ask-workflow";
import type { AnsweredAskView, AskView } from "./api-schemas";

export type { AskView };

/** Where an ask stands, as the API says it. */
export type AskStatus = AskView["status"];

/** The API's view of an ask record at `now`, with its question page under `baseUrl`: one shape per status, its keys in one order. */
export function askView(record: ApiAskRecord, baseUrl: string, now: Date): AskView {
  const status: AskStatus = record.questionStatus === "answered" ? "answered" : record.questionStatus === "nothing" ? "nothing" : "open";
  const endedAt = status === "open" ? now : (record.answeredAt ?? now);
  const base = {
    title: record.title,
    body: record.body,
    context: record.context,
    to: record.to as AskView["to"],
    url: new URL(`/questions/${record.questionId}`, baseUrl).toString(),
    question_id: record.questionId,
    due_at: record.dueAt?.toISOString() ?? null,
    created_at: record.createdAt.toISOString(),
    metadata: record.metadata,
    attempts: { allowed: record.attempts, refused: record.attemptsUsed },
  };
  const waited_seconds = Math.max(0, Math.round((endedAt.getTime() - record.createdAt.getTime()) / 1000));
  if (status === "answered") {
    const value = record.freeText && record.answer && typeof record.answer === "object" ? (record.answer as Record<string, unknown>)[FREE_TEXT_FIELD] : record.answer;
    return {
      id: record.id,
      status,
      ...base,
      // The response schema's root is an object, and a free-text ask's answer is its text.
      answer: (value ?? null) as AnsweredAskView["answer"],
      answered_by: record.answeredBy,
      // Answering a question sets when, in the same statement.
      answered_at: endedAt.toISOString(),
      waited_seconds,
      reason: null,
      declined_by: null,
      note: null,
    };
  }
  if (status === "nothing") {
    return {
      id: record.id,
      status,
      ...base,
      answer: null,
      answered_by: null,
      answered_at: record.answeredAt?.toISOString() ?? null,
      waited_seconds,
      // Closing a question with nothing sets why, in the same statement.
      reason: record.reason ?? "unavailable",
      declined_by: record.declinedBy,
      note: record.declineNote,
    };
  }
  return { id: record.id, status, ...base, answer: null, answered_by: null, answered_at: null, waited_seconds, reason: null, declined_by: null, note: null };
}
