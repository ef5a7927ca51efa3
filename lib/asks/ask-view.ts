import type { ApiAskRecord } from "@/db/queries/api-asks";
import { FREE_TEXT_FIELD } from "./api-ask-workflow";
import type { AskView } from "./api-schemas";

export type { AskView };

/** Where an ask stands, as the API says it. */
export type AskStatus = AskView["status"];

/** The API's view of an ask record at `now`, with its question page under `baseUrl`. */
export function askView(record: ApiAskRecord, baseUrl: string, now: Date): AskView {
  const status: AskStatus = record.questionStatus === "answered" ? "answered" : record.questionStatus === "nothing" ? "nothing" : "open";
  const answered = status === "answered";
  const value = answered && record.freeText && record.answer && typeof record.answer === "object" ? (record.answer as Record<string, unknown>)[FREE_TEXT_FIELD] : record.answer;
  const endedAt = status === "open" ? now : (record.answeredAt ?? now);
  return {
    id: record.id,
    status,
    title: record.title,
    body: record.body,
    context: record.context,
    to: record.to as AskView["to"],
    url: new URL(`/questions/${record.questionId}`, baseUrl).toString(),
    due_at: record.dueAt?.toISOString() ?? null,
    created_at: record.createdAt.toISOString(),
    metadata: record.metadata,
    attempts: { allowed: record.attempts, refused: record.attemptsUsed },
    answer: answered ? (value ?? null) : null,
    answered_by: answered ? record.answeredBy : null,
    answered_at: status === "open" ? null : (record.answeredAt?.toISOString() ?? null),
    waited_seconds: Math.max(0, Math.round((endedAt.getTime() - record.createdAt.getTime()) / 1000)),
    reason: status === "nothing" ? record.reason : null,
  };
}
