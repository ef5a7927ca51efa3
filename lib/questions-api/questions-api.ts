import type { z } from "zod";
import type { Db } from "@/db/client";
import type { QuestionRow } from "@/db/queries/runtime-questions";
import { findQuestionIdOfApiAsk } from "@/db/queries/api-ask-questions";
import { findUserById } from "@/db/queries/users";
import type { ApiKey } from "@/db/schema";
import { pathText } from "@/lib/asks/ask-request";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { addLogContext } from "@/lib/log";
import { askerOf, headlineOf } from "@/lib/inbox";
import type { Registry, TaskSubject } from "@/lib/registry";
import type { QuestionUnavailable, Runtime } from "@/lib/runtime";
import {
  AnswerRequestBody,
  type AnsweredView,
  type ClosedWithNothingView,
  type MeView,
  NothingRequestBody,
  type QuestionDetailView,
  type QuestionPageView,
  type QuestionSummaryView,
} from "./api-schemas";

/** The most questions one page of `GET /questions` holds. */
export const MAX_QUESTIONS_PAGE = 100;
/** How many questions a page holds unless `limit` says otherwise. */
export const DEFAULT_QUESTIONS_PAGE = 50;

/** What the person's API is made of: the database, the runtime's question desk, the registry's descriptions, where question pages are. */
export interface QuestionsApiOptions {
  db: Db;
  runtime: Pick<Runtime, "questionsFor" | "questionFor" | "submitAnswer" | "closeWithNothing" | "decline">;
  registry: Pick<Registry, "describeTasks" | "contextOf" | "aboutTask"> & Partial<Pick<Registry, "entry">>;
  /** The public origin question links point at. */
  baseUrl: string;
  now?: () => Date;
  /** Called once an answer or a closing is committed: the run it resumes is waiting for the worker. */
  onSettled?: () => void;
}

/**
 * A person's side of the HTTP API: a personal token acts as the person it belongs to, and reads and
 * answers only the questions put to them — through the same question desk as the inbox and the
 * terminal, so an answer is judged by the asker's own schema and taken exactly once.
 */
export interface QuestionsApi {
  /** Who the token belongs to. */
  me(key: ApiKey): Promise<MeView>;
  /** The person's open questions, soonest due first, a page at a time. */
  list(key: ApiKey, options?: { limit?: number; cursor?: string | null }): Promise<QuestionPageView>;
  /**
   * One of the person's questions (open, or closed: who answered and when, or why nothing), by its id
   * or by the id of the API ask that put it to them; `not_found` for another's or an unknown id.
   */
  get(key: ApiKey, id: string): Promise<QuestionDetailView>;
  /**
   * Answers with text typed per field (`{ answers: { path: text } }`). Refused: `answer_refused` (422)
   * with the schema's words by field and the next attempt; the last refused attempt closes the question
   * (`attempts_exhausted`, 409); someone else's answer first is `already_answered` (409, who and when),
   * a question closed with nothing `question_closed` (409, why); another's or unknown, `not_found`.
   */
  answer(key: ApiKey, id: string, body: unknown): Promise<AnsweredView>;
  /**
   * Closes the question with nothing: nobody is at the terminal (`{ reason: "non-interactive" }`), or
   * the person cannot answer it (`{ reason: "declined", note }`, the note for whoever asked). Asking
   * again for what is already so is answered alike.
   */
  nothing(key: ApiKey, id: string, body: unknown): Promise<ClosedWithNothingView>;
}

/** The same answer for a question that is not there and one that is someone else's: whether it exists is not theirs to learn. */
function notFound(): AppError {
  return new AppError("not_found", "There is no such question, or it is not yours to answer.");
}

/** The person a key acts as: only a personal token has one. */
function personOf(key: ApiKey): string {
  if (key.kind !== "personal" || !key.userId) throw new AppError("unauthorized", "Send a personal token (pt_…): make one on your profile.");
  return key.userId;
}

/** A request body judged by its schema: a 400 naming the first problem and where it is. */
function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const fullPath = pathText(issue.path);
  // The caller's own keys, echoed: cut short, so a huge one is not sent back whole.
  const path = fullPath.length > 120 ? `${fullPath.slice(0, 120)}…` : fullPath;
  // zod does not say what it was given: whether a field is missing or of the wrong type is read from the body.
  const given = issue.path.reduce<unknown>((node, segment) => (node !== null && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[segment] : undefined), body);
  const message =
    issue.code === "unrecognized_keys"
      ? `Unknown field${issue.keys.length === 1 ? "" : "s"}: ${issue.keys.join(", ")}.`
      : path === ""
        ? "The body must be a JSON object."
        : issue.code === "invalid_type" && given === undefined
          ? `${path} is required.`
          : `${path}: ${issue.message}`;
  throw new AppError("invalid_input", message, { path: issue.code === "unrecognized_keys" ? (issue.keys[0] ?? path) : path });
}

/** A question the desk could not take an answer or a closing for, as the API's error. */
function unavailableError(result: QuestionUnavailable): AppError {
  switch (result.status) {
    case "not_found":
    case "forbidden":
      return notFound();
    case "definition_error":
      return new AppError("definition_error", result.message);
    case "conflict":
      if (result.answeredBy || result.answeredAt) {
        return new AppError("already_answered", result.message, {
          details: { answered_by: result.answeredBy ? { name: result.answeredBy.name } : null, answered_at: result.answeredAt?.toISOString() ?? null },
        });
      }
      if (result.reason) return new AppError("question_closed", result.message, { details: { reason: result.reason } });
      return new AppError("conflict", result.message);
  }
}

/** Builds the person's API over one database, runtime and registry. */
export function createQuestionsApi(options: QuestionsApiOptions): QuestionsApi {
  const { db, runtime, registry, baseUrl } = options;
  const now = options.now ?? (() => new Date());
  const settled = () => options.onSettled?.();

  function subjectView(subject: TaskSubject | undefined): QuestionSummaryView["subject"] {
    return subject ? { title: subject.title, summary: subject.summary ?? null } : null;
  }

  function summary(question: QuestionRow, subject: TaskSubject | undefined): QuestionSummaryView {
    return {
      id: question.id,
      title: headlineOf(question),
      asked_by: (({ kind, name }) => ({ kind, name }))(askerOf(question, subject, registry)),
      subject: subjectView(subject),
      url: new URL(`/questions/${question.id}`, baseUrl).toString(),
      due_at: question.slot?.dueAt?.toISOString() ?? null,
      opened_at: (question.slot?.openedAt ?? question.askedAt).toISOString(),
      attempts: { allowed: question.attemptsAllowed, refused: question.attemptsUsed },
      spec: question.spec as QuestionSummaryView["spec"],
    };
  }

  async function aboutTaskOf(taskId: string): Promise<{ subject: TaskSubject | undefined; context: Awaited<ReturnType<Registry["contextOf"]>> }> {
    const [subjects, context] = await Promise.all([registry.describeTasks(db, [taskId]), registry.contextOf(db, taskId)]);
    return { subject: subjects.get(taskId), context };
  }

  async function questionOfAsk(askId: string, userId: string): Promise<QuestionRow | undefined> {
    const questionId = await findQuestionIdOfApiAsk(db, askId);
    return questionId ? ((await runtime.questionFor(questionId, userId)) ?? undefined) : undefined;
  }

  return {
    async me(key) {
      const user = await findUserById(db, personOf(key));
      if (!user) throw new AppError("unauthorized", "This personal token's person is no longer in Parley.");
      return { id: user.id, email: user.email, name: user.name, roles: [...user.roles] };
    },

    async list(key, listOptions = {}) {
      const userId = personOf(key);
      const limit = listOptions.limit ?? DEFAULT_QUESTIONS_PAGE;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUESTIONS_PAGE) {
        throw new AppError("invalid_input", `limit must be a whole number from 1 to ${MAX_QUESTIONS_PAGE}.`, { path: "limit" });
      }
      const cursor = listOptions.cursor ?? null;
      if (cursor !== null && !isUuid(cursor)) throw new AppError("invalid_input", "cursor is not one this API gave out.", { path: "cursor" });
      // One more than the page: whether there is a next page is known without counting.
      const rows = await runtime.questionsFor(userId, { limit: limit + 1, after: cursor });
      const page = rows.slice(0, limit);
      const subjects = await registry.describeTasks(db, page.map((question) => question.taskId));
      return {
        data: page.map((question) => summary(question, subjects.get(question.taskId))),
        next_cursor: rows.length > limit ? page.at(-1)!.id : null,
      };
    },

    async get(key, id) {
      const userId = personOf(key);
      if (!isUuid(id)) throw notFound();
      // An ask's id names the question it put: still only one this person may see.
      const question = (await runtime.questionFor(id, userId)) ?? (await questionOfAsk(id, userId));
      if (!question) throw notFound();
      addLogContext({ questionId: question.id, taskId: question.taskId });
      // A question a workflow's slot holds names the workflow: what its run is about is asked of that workflow alone;
      // an agent's question is looked up by its task.
      const { subject, context } = question.workflow ? await registry.aboutTask(db, question.taskId, question.workflow) : await aboutTaskOf(question.taskId);
      const slot = question.slot;
      const pastDue = Boolean(slot?.dueAt && slot.dueAt <= now());
      const answered = question.status === "answered" || slot?.status === "finished";
      const open = !answered && question.status === "open" && slot?.status === "open" && !pastDue;
      const status = open ? "open" : answered ? "answered" : "nothing";
      const answeredAt = question.answeredAt ?? slot?.finishedAt ?? null;
      return {
        ...summary(question, subject),
        status,
        reason: status === "nothing" ? (question.reason ?? (pastDue || slot?.status === "expired" ? "expired" : null)) : null,
        asked_at: question.askedAt.toISOString(),
        answered_by: answered ? { name: question.answeredByName ?? slot?.finishedByName ?? null } : null,
        answered_at: status === "open" ? null : (answeredAt?.toISOString() ?? null),
        declined_by: question.reason === "declined" ? { name: question.declinedByName } : null,
        note: question.reason === "declined" ? question.declineNote : null,
        context: context ? { title: context.title, facts: context.facts.map((fact) => ({ label: fact.label, value: fact.value })) } : null,
      };
    },

    async answer(key, id, body) {
      const userId = personOf(key);
      const { answers } = parseBody(AnswerRequestBody, body);
      // A key like `__proto__` cannot survive into a plain object: a field it names would silently go unanswered, so it is refused by name.
      const lost = Object.keys((body as { answers: object }).answers).find((path) => !Object.hasOwn(answers, path));
      if (lost !== undefined) throw new AppError("invalid_input", `This question has no field “${lost}”.`, { path: `answers.${lost}` });
      if (!isUuid(id)) throw notFound();
      addLogContext({ questionId: id });
      // The road the benchmark drives: the desk's one read of the question, its judgement, one write.
      const result = await runtime.submitAnswer({ questionId: id, by: userId, answer: { text: answers } });
      switch (result.status) {
        case "answered":
          settled();
          return { id, status: "answered", value: result.value };
        case "refused":
          throw new AppError("answer_refused", `The answer was refused; please try again (${result.attempt}).`, {
            details: {
              fields: { ...result.fieldErrors },
              form: result.formErrors,
              more_checks_after_these: result.moreChecksAfterThese,
              attempt: result.attempt,
              attempts_left: result.attemptsLeft,
            },
          });
        case "closed":
          settled();
          throw new AppError("attempts_exhausted", "The answer was refused, and that was the last attempt: the question closed without an answer (reason: refused).", {
            details: { fields: { ...result.fieldErrors }, form: result.formErrors, more_checks_after_these: result.moreChecksAfterThese, attempts_left: 0, reason: "refused" },
          });
        case "invalid_input":
          throw new AppError("invalid_input", result.message, { path: `answers.${result.path}` });
        default:
          throw unavailableError(result);
      }
    },

    async nothing(key, id, body) {
      const userId = personOf(key);
      const request = parseBody(NothingRequestBody, body);
      if (!isUuid(id)) throw notFound();
      addLogContext({ questionId: id });
      if (request.reason === "declined") {
        const result = await runtime.decline({ questionId: id, by: userId, note: request.note ?? null });
        if (result.status === "closed") {
          settled();
          return { id, status: "nothing", reason: "declined", note: result.note };
        }
        if (result.status === "invalid_input") throw new AppError("invalid_input", result.message, { path: "note" });
        throw unavailableError(result);
      }
      const result = await runtime.closeWithNothing({ questionId: id, reason: request.reason, by: userId });
      if (result.status === "closed") {
        settled();
        return { id, status: "nothing", reason: request.reason, note: null };
      }
      // Saying again that nobody is at the terminal asks for what is already so.
      if (result.status === "conflict" && result.reason === request.reason) return { id, status: "nothing", reason: request.reason, note: null };
      throw unavailableError(result);
    },
  };
}
