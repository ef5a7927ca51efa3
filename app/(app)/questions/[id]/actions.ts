"use server";

import { agentWords } from "@/lib/plain-words";
import { revalidatePath } from "next/cache";
import { redirect, unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { submittedValues } from "@/components/questions/question-form-state";
import { getAppRuntime } from "@/lib/app-runtime";
import { getDb } from "@/lib/database";
import { AppError, ERROR_CODES } from "@/lib/errors";
import { formatDuration, formatUtc } from "@/lib/sla-clock";
import type { FormAnswer } from "@/lib/questions";
import { addLogContext, log } from "@/lib/log";
import { isFormSubmission } from "@/lib/server/action-input";
import { asLoggedAction } from "@/lib/server/action-log";
import { type ActionResult, defineFormAction } from "@/lib/server/define-action";
import { authorizeAnswering } from "@/lib/server/session";
import type { AnswerState, ClaimOutcome, DeclineOutcome } from "./answer-state";
import { isUuid } from "@/lib/ids";
import { snooze, SNOOZE_CHOICE_KEYS, wake } from "@/lib/snoozes";

function toRecord(value: unknown): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = Object.create(null);
  if (typeof value !== "object" || value === null) return record;
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry === "string") record[key] = entry;
    else if (Array.isArray(entry)) record[key] = entry.filter((item): item is string => typeof item === "string");
  }
  return record;
}

/** React sends only plain objects to the browser; refusals are kept in null-prototype maps. */
function plain<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return { ...record };
}

/**
 * Submits an answer to a question. A public endpoint: it authenticates, and the runtime decides
 * whether this person may answer, judges the answer with the flow's own schema, and takes it exactly
 * once. Refusals come back with what was typed, so nothing is lost.
 */
export async function submitAnswerAction(_previous: AnswerState | null, submitted: FormData): Promise<AnswerState> {
  return asLoggedAction(() => submitAnswer(submitted));
}

async function submitAnswer(submitted: FormData): Promise<AnswerState> {
  try {
    const form = isFormSubmission(submitted);
    // A session from an email's answer link may answer its one question: which one is asked is read before who asks.
    const named = form ? (submitted instanceof FormData ? submitted.get("questionId") : toRecord(submitted).questionId) : undefined;
    const { user } = await authorizeAnswering(named);
    // A wrong type is refused before the question is touched: it is no attempt at an answer.
    if (!form) throw new AppError("invalid_input", "This is not a form submission: send the answer's fields as text.");
    // Whatever the caller sent: a browser posts FormData, a hand-made call may post a plain object.
    const formData: FormAnswer = submitted instanceof FormData ? submitted : toRecord(submitted);
    const questionId = formData instanceof FormData ? formData.get("questionId") : formData.questionId;
    if (!isUuid(questionId)) throw new AppError("not_found", "There is no such question.");
    addLogContext({ questionId });
    const { runtime, worker } = await getAppRuntime();
    const question = await runtime.questionFor(questionId, user.id);
    if (!question) throw new AppError("not_found", "There is no such question, or it is not yours to answer.");
    addLogContext({ taskId: question.taskId });

    const result = await runtime.submitAnswer({ questionId, by: user.id, answer: { form: formData } });
    const now = Date.now();
    switch (result.status) {
      case "answered": {
        worker.wake();
        revalidatePath(`/questions/${questionId}`);
        revalidatePath("/inbox");
        // An agent carries on with the answer; a flow's or a caller's name would say nothing more.
        return { outcome: "answered", message: `Your answer was taken.${question.agent ? ` The ${agentWords(question.agent)} carries on.` : ""}` };
      }
      case "refused":
        return {
          values: submittedValues(question.spec, formData),
          fieldErrors: plain(result.fieldErrors),
          formErrors: result.formErrors,
          moreChecksAfterThese: result.moreChecksAfterThese,
          attemptLabel: result.attempt,
          lastAttempt: result.attemptsLeft === 1,
        };
      case "closed":
        revalidatePath(`/questions/${questionId}`);
        return {
          outcome: "closed",
          message: "That was the last attempt: the question is closed, and the flow carries on without an answer.",
          values: submittedValues(question.spec, formData),
          fieldErrors: plain(result.fieldErrors),
          formErrors: result.formErrors,
        };
      case "conflict": {
        revalidatePath(`/questions/${questionId}`);
        const message =
          result.answeredBy && result.answeredAt
            ? `${result.answeredBy.id === user.id ? "You" : (result.answeredBy.name ?? "Someone else")} already answered this question ${formatDuration(now - result.answeredAt.getTime())} ago (${formatUtc(result.answeredAt)}). Your answer was not sent.`
            : `${result.message} Your answer was not sent.`;
        return { outcome: "unavailable", code: "conflict", message, values: submittedValues(question.spec, formData) };
      }
      case "forbidden":
      case "not_found":
      case "definition_error":
      // Only typed text can name a field the question lacks; a posted form cannot, but is answered alike.
      case "invalid_input":
        return { outcome: "unavailable", code: result.status, message: result.message };
    }
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof AppError) return { outcome: "unavailable", code: error.code, message: error.message };
    log.error({ err: error }, "Submitting an answer failed.");
    return { outcome: "unavailable", code: "internal", message: ERROR_CODES.internal.message };
  }
}

const claimQuestion = defineFormAction({
  roles: [],
  input: z.object({ questionId: z.string(), intent: z.enum(["take", "give-back"]) }),
  async handler({ questionId, intent }, user): Promise<ClaimOutcome> {
    const { runtime } = await getAppRuntime();
    // Only a question put to this person is found; anyone else's is as unknown as no question.
    const question = isUuid(questionId) ? await runtime.questionFor(questionId, user.id) : null;
    if (!question?.slot) throw new AppError("not_found", "There is no such question, or it is not yours to answer.");
    const result =
      intent === "take" ? await runtime.claimSlot({ slotId: question.slot.id, by: user.id }) : await runtime.unclaimSlot({ slotId: question.slot.id, by: user.id });
    revalidatePath(`/questions/${questionId}`);
    revalidatePath("/inbox");
    switch (result.status) {
      case "claimed":
        return { held: true, message: "You took this question: the others see that you have it." };
      case "unclaimed":
        return { held: false, message: "You gave the question back: anyone it was put to may take it or answer it." };
      case "taken":
        throw new AppError("conflict", `${result.by.name} took this question first${result.at ? ` (${formatUtc(result.at)})` : ""}.`);
      case "not_open":
        throw new AppError("conflict", intent === "take" ? "This question can no longer be taken: it was answered, closed or given to someone." : "You do not hold this question.");
    }
  },
});

/**
 * "I'll take it" (`take`) or giving a taken question back (`give-back`): a public endpoint, so it
 * authenticates and finds the question only among those put to this person; the runtime decides in
 * one conditional update, and the page (re-read) says who holds it either way.
 */
export async function claimQuestionAction(_previous: ActionResult<ClaimOutcome> | null, formData: FormData | Record<string, unknown>): Promise<ActionResult<ClaimOutcome>> {
  return claimQuestion(formData);
}

/**
 * "I can't answer this": ends the question with nothing, reason `declined`, with the person's
 * optional note for whoever asked. A public endpoint: it authenticates (a session from the
 * question's answer link may decline that one question), finds the question only among those put
 * to this person, and the runtime closes it in one conditional update.
 */
export async function declineQuestionAction(_previous: ActionResult<DeclineOutcome> | null, submitted: FormData | Record<string, unknown>): Promise<ActionResult<DeclineOutcome>> {
  return asLoggedAction(() => declineQuestion(submitted));
}

async function declineQuestion(submitted: FormData | Record<string, unknown>): Promise<ActionResult<DeclineOutcome>> {
  try {
    if (!isFormSubmission(submitted)) throw new AppError("invalid_input", "This is not a form submission: send the question and the note as text.");
    const fields = submitted instanceof FormData ? { questionId: submitted.get("questionId"), note: submitted.get("note") } : toRecord(submitted);
    const { user } = await authorizeAnswering(fields.questionId);
    const { questionId } = fields;
    if (!isUuid(questionId)) throw new AppError("not_found", "There is no such question.");
    addLogContext({ questionId });
    const note = typeof fields.note === "string" ? fields.note : null;
    const { runtime, worker } = await getAppRuntime();
    const question = await runtime.questionFor(questionId, user.id);
    if (!question) throw new AppError("not_found", "There is no such question, or it is not yours to answer.");
    addLogContext({ taskId: question.taskId });
    const result = await runtime.decline({ questionId, by: user.id, note });
    revalidatePath(`/questions/${questionId}`);
    revalidatePath("/inbox");
    switch (result.status) {
      case "closed":
        worker.wake();
        return { ok: true, data: { message: "You declined the question: whoever asked was told you cannot answer it." } };
      case "invalid_input":
        return { ok: false, error: { code: "invalid_input", message: result.message, fieldErrors: { note: [result.message] } } };
      case "conflict":
        return { ok: false, error: { code: "conflict", message: `${result.message} Nothing was declined.` } };
      default:
        return { ok: false, error: { code: result.status, message: result.message } };
    }
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof AppError) return { ok: false, error: { code: error.code, message: error.message } };
    log.error({ err: error }, "Declining a question failed.");
    return { ok: false, error: { code: "internal", message: ERROR_CODES.internal.message } };
  }
}

const snoozeQuestion = defineFormAction({
  roles: [],
  input: z.object({ questionId: z.string(), for: z.enum(SNOOZE_CHOICE_KEYS, { message: "Choose how long it is out of your inbox." }) }),
  async handler({ questionId, for: choice }, user): Promise<never> {
    await snooze(await getDb(), { questionId, userId: user.id, choice, now: new Date() });
    revalidatePath("/inbox");
    revalidatePath(`/questions/${questionId}`);
    redirect(`/inbox?snoozed=${questionId}`);
  },
});

/**
 * "Snooze": puts an open question of the signed-in person's out of their inbox for the while chosen,
 * then back to the inbox, which says until when. Only the person's own view changes: its deadline,
 * its escalations and everyone else it is put to are as they were.
 */
export async function snoozeQuestionAction(_previous: unknown, submitted: FormData | Record<string, unknown>): Promise<ActionResult<never>> {
  return snoozeQuestion(submitted);
}

const wakeQuestion = defineFormAction({
  roles: [],
  input: z.object({ questionId: z.string() }),
  async handler({ questionId }, user): Promise<{ woken: boolean }> {
    const woken = await wake(await getDb(), { questionId, userId: user.id, now: new Date() });
    if (!woken) throw new AppError("not_found", "This question is not snoozed (or not yours): it is in your inbox already, if it is open.");
    revalidatePath("/inbox");
    revalidatePath(`/questions/${questionId}`);
    return { woken };
  },
});

/** "Bring it back now": ends the signed-in person's snooze of a question, which is in their inbox again at once. */
export async function wakeQuestionAction(_previous: unknown, submitted: FormData | Record<string, unknown>): Promise<ActionResult<{ woken: boolean }>> {
  return wakeQuestion(submitted);
}
