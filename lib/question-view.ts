import type { Db } from "@/db/client";
import { type ConversationWindow, readConversationWindow } from "@/db/queries/conversation-window";
import { findReassignmentAway } from "@/db/queries/inbox";
import { snoozedAmong } from "@/db/queries/question-snoozes";
import { findRun, type RunRow } from "@/db/queries/runs";
import { findOpenQuestionOfTaskFor, partiesOf, type QuestionPageRequest, type QuestionRow } from "@/db/queries/runtime-questions";
import { headlineOf } from "@/lib/inbox";
import { type ConversationLine, readableConversation } from "@/lib/conversation-view";
import type { NothingReason, RunStatus } from "@/db/schema";
import type { QuestionSpec } from "@/lib/questions";
import type { ContextPanel, Registry, TaskSubject } from "@/lib/registry";

/** Why a question got no answer, in the words screens finish "closed without an answer: …" with. */
export const NOTHING_REASON_WORDS: Readonly<Record<NothingReason, string>> = {
  refused: "the answers given were refused until the attempts ran out",
  away: "the person asked was away",
  "non-interactive": "nobody was at the terminal",
  expired: "nobody answered before the deadline",
  cancelled: "whoever asked withdrew the question",
  unavailable: "the person asked is no longer in Parley",
  declined: "the person asked declined it",
};

/** Each reason as a short heading, for counts and lists ("Expired: 3"). */
export const NOTHING_REASON_LABELS: Readonly<Record<NothingReason, string>> = {
  expired: "Expired",
  refused: "Refused until the attempts ran out",
  away: "Away",
  unavailable: "No longer in Parley",
  "non-interactive": "Nobody at the terminal",
  cancelled: "Withdrawn",
  declined: "Declined",
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
export function closedWithoutAnswerText(
  reason: string | null | undefined,
  runStatus: RunStatus | undefined,
  fallback: string,
  /** For a declined question: who declined it ("You" for the person reading) and the note they left. */
  declined?: { who: string; note: string | null },
): string {
  if (reason === "cancelled" && runStatus === "cancelled") return `${NOTHING_REASON_LABELS.cancelled}: the run was cancelled; this question was withdrawn.`;
  if (reason === "declined" && declined) return `${declined.who} declined this question${declined.note ? `, noting: “${declined.note}”` : "."}`;
  return `This question closed without an answer: ${nothingReasonWords(reason, fallback)}.`;
}

/** How many messages of an agent's conversation a question's page shows at most, besides the brief. */
export const CONVERSATION_WINDOW = 30;

/** What the question page shows beside a question: where its run stands, what it is about, and the agent's conversation. */
export interface QuestionRun {
  /** Where its run stands, read as the runs list and the run page read it (one vocabulary: lib/run-view's `runStateWords`). */
  run: Pick<RunRow, "workflow" | "state" | "status" | "runState" | "nothingReason"> | undefined;
  /** What its task is about, from its workflow's registry entry. */
  subject: (TaskSubject & { workflow: string }) | undefined;
  context: ContextPanel | undefined;
  /**
   * The agent's conversation as far as this question: its brief, then its latest messages up to the
   * answer to this question (up to now while it is open). A long one leaves out what lies between.
   */
  conversation: ConversationLine[];
  /** What a long conversation leaves out: how many messages, before which of the lines. */
  gap: { beforeLine: number; messages: number } | null;
}

/** The window's lines; a window that begins with the answers to calls it does not show leaves those out too. */
function windowLines(read: ConversationWindow): Pick<QuestionRun, "conversation" | "gap"> {
  if (!read.first) return { conversation: readableConversation(read.window), gap: null };
  let start = 0;
  while (read.window[start]?.role === "tool") start++;
  const brief = readableConversation([read.first]);
  return { conversation: [...brief, ...readableConversation(read.window.slice(start))], gap: { beforeLine: brief.length, messages: read.skipped + start } };
}

/**
 * Reads where a question's run stands, what its task is about and, when an agent asked it, the part of
 * that agent's conversation shown beside it. The run's workflow is read once, with the run, and its
 * registry entry describes the task; the conversation read is bounded (CONVERSATION_WINDOW), however long it grew.
 */
export async function loadQuestionRun(
  db: Db,
  registry: Pick<Registry, "aboutTask">,
  question: { id: string; taskId: string; conversationId: string | null },
): Promise<QuestionRun> {
  const [run, read] = await Promise.all([
    findRun(db, question.taskId),
    question.conversationId ? readConversationWindow(db, { conversationId: question.conversationId, questionId: question.id, limit: CONVERSATION_WINDOW }) : undefined,
  ]);
  const { subject, context } = run ? await registry.aboutTask(db, question.taskId, run.workflow) : { subject: undefined, context: undefined };
  return { run, subject, context, ...(read ? windowLines(read) : { conversation: [], gap: null }) };
}

/**
 * Who has a question now that was reassigned away from `userId`, and since when; undefined when it
 * was never theirs. Their old link then says where it went instead of "not found".
 */
export function reassignedAwayFrom(db: Db, questionId: string, userId: string): Promise<{ toName: string | null; at: Date } | undefined> {
  return findReassignmentAway(db, questionId, userId);
}

/** Everyone else a question is put to besides `userId` (by id): declining it ends it for them too. */
export function othersItIsFor(question: Pick<QuestionRow, "slot">, userId: string): string[] {
  return partiesOf(question).filter((id) => id !== userId);
}

/** A question to go on to, as the page links it. */
export interface NextQuestion {
  id: string;
  headline: string;
}

/** How many of the person's soonest due questions are looked at for the next one to offer. */
const NEXT_LOOKED_AT = 10;

/**
 * Where a person goes once they have answered (or declined) a question: the question the same run
 * asks them next, if it has asked one (the questionnaire after the Auditor), and the soonest due of
 * the rest of their inbox (not one they snoozed).
 */
export async function whatComesNext(
  db: Db,
  runtime: { questionsFor(userId: string, page?: QuestionPageRequest): Promise<QuestionRow[]> },
  userId: string,
  question: Pick<QuestionRow, "id" | "taskId">,
): Promise<{ sameRun: NextQuestion | null; next: NextQuestion | null }> {
  const [again, soonest] = await Promise.all([findOpenQuestionOfTaskFor(db, question.taskId, userId, question.id), runtime.questionsFor(userId, { limit: NEXT_LOOKED_AT })]);
  // A question they snoozed is out of their sight: the next one is the soonest due of the rest.
  const snoozed = await snoozedAmong(db, userId, soonest.map((each) => each.id), new Date());
  const next = soonest.find((each) => each.id !== question.id && each.id !== again?.id && !snoozed.has(each.id));
  return {
    sameRun: again ? { id: again.id, headline: headlineOf(again) } : null,
    next: next ? { id: next.id, headline: headlineOf(next) } : null,
  };
}

/** What the answer form calls a single question that the page's heading already asks. */
export const YOUR_ANSWER_LABEL = "Your answer";

/**
 * The spec as the question page's form asks it: one question whose words are the page's heading (an
 * agent's ask, a one-question ask over the API) is labelled {@link YOUR_ANSWER_LABEL} instead of
 * being said again under the heading. Any other spec is asked as it is.
 */
export function specToAnswer(spec: QuestionSpec, headline: string): QuestionSpec {
  const [only] = spec.fields;
  if (spec.fields.length !== 1 || !only || only.question.trim() !== headline.trim()) return spec;
  return { ...spec, fields: [{ ...only, question: YOUR_ANSWER_LABEL }] };
}

/** A line of the conversation beside a question; `current` marks the asking of the question on the page. */
export type ConversationLineBeside = ConversationLine & { current?: boolean };

/**
 * The conversation beside a question, with the last asking of this very question marked `current`:
 * the page's heading says its words, so the conversation says only that it was asked there.
 */
export function conversationBeside(lines: readonly ConversationLine[], headline: string): ConversationLineBeside[] {
  const index = lines.findLastIndex((line) => line.kind === "question" && line.text.trim() === headline.trim());
  return lines.map((line, at) => (at === index ? { ...line, current: true } : line));
}
