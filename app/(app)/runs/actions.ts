"use server";

import { revalidatePath } from "next/cache";
import { redirect, unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { type QuestionFormState, submittedValues } from "@/components/questions/question-form-state";
import { getAppRuntime } from "@/lib/app-runtime";
import { hasAnyRole } from "@/lib/auth/roles";
import { getDb } from "@/lib/database";
import { AppError, ERROR_CODES, type ErrorCode } from "@/lib/errors";
import { addLogContext, log } from "@/lib/log";
import { type FormAnswer, validateFormAnswer } from "@/lib/questions";
import { loadRunPage, startFormOf, startRunOnce } from "@/lib/runs";
import { asLoggedAction } from "@/lib/server/action-log";
import { type ActionResult, defineFormAction, isFormSubmission } from "@/lib/server/define-action";
import { authorize } from "@/lib/server/session";

/**
 * What the start form shows after a submission that started nothing: refusals on their fields with what
 * was typed, or why it could not start. A start does not come back here: it goes to the run's page.
 */
export interface StartRunState extends QuestionFormState {
  /** `refused`: the start schema refused the form (its reasons are on the fields); nothing started. */
  outcome?: "refused" | "unavailable";
  message?: string;
  code?: ErrorCode;
  /** The form's one-time token, kept: sent again, the form starts at most one run. */
  startToken?: string;
}

/** What the run's page says of how it was reached from a start form (`?started=`). */
export type StartedNotice = "new" | "again";

/** A submission's start token (a form's hidden field), if it sent one. */
function startTokenOf(form: FormAnswer): string | undefined {
  const token = form instanceof FormData ? form.get("startToken") : (form as Record<string, unknown>).startToken;
  return typeof token === "string" ? token : undefined;
}

/** React sends only plain objects to the browser; refusals come in null-prototype maps. */
function plain<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  return { ...record };
}

/**
 * Starts a registered workflow from its generated start form. A public endpoint: it authenticates,
 * checks the person may start this workflow, judges the form with the workflow's own start schema
 * (refusals go back on their fields with what was typed), and only then starts the run — once per
 * form: the form's one-time `startToken` is recorded with the run it starts.
 */
export async function startRunAction(_previous: StartRunState | null, submitted: FormData): Promise<StartRunState> {
  return asLoggedAction(() => startRun(submitted));
}

async function startRun(submitted: FormData): Promise<StartRunState> {
  let startToken: string | undefined;
  try {
    const user = await authorize();
    if (!isFormSubmission(submitted)) throw new AppError("invalid_input", "This is not a form submission: send the form's fields as text.");
    // A browser posts FormData; a hand-made call may post a plain object of strings (checked above).
    const form: FormAnswer = submitted instanceof FormData ? submitted : (submitted as Record<string, string | string[]>);
    const name = form instanceof FormData ? form.get("workflow") : (form as Record<string, unknown>).workflow;
    startToken = startTokenOf(form);
    const { runtime, worker, registry } = await getAppRuntime();
    const entry = typeof name === "string" ? registry.entry(name) : undefined;
    if (!entry?.start) throw new AppError("not_found", "There is no such workflow to start.");
    if (!hasAnyRole(user.roles, entry.start.roles ?? ["operator"])) throw new AppError("forbidden", `You may not start ${entry.label}.`);
    const db = await getDb();
    const { schema, spec } = await startFormOf(db, entry);
    const verdict = await validateFormAnswer(schema, form, spec);
    if (!verdict.ok) {
      return {
        outcome: "refused",
        code: "invalid_input",
        values: submittedValues(spec, form),
        fieldErrors: plain(verdict.fieldErrors),
        formErrors: verdict.formErrors,
        moreChecksAfterThese: verdict.moreChecksAfterThese,
        ...(startToken ? { startToken } : {}),
      };
    }
    // The form's one-time token: the same form submitted again (a lost reply, a double click) starts nothing more.
    const { status, taskId } = await startRunOnce(db, entry, { token: startToken ?? "", input: verdict.value, context: { runtime, by: user.id, now: new Date() } });
    addLogContext({ taskId });
    worker.wake();
    revalidatePath("/runs");
    // To the run it started (or had started already), which says so: with JavaScript or without.
    const notice: StartedNotice = status === "already_started" ? "again" : "new";
    redirect(`/tasks/${taskId}?started=${notice}`);
  } catch (error) {
    unstable_rethrow(error);
    // Whatever went wrong, the form keeps its token: sent again, it starts the run at most once.
    const token = startToken ? { startToken } : {};
    if (error instanceof AppError) return { outcome: "unavailable", code: error.code, message: error.message, ...token };
    log.error({ err: error }, "Starting a run failed.");
    return { outcome: "unavailable", code: "internal", message: ERROR_CODES.internal.message, ...token };
  }
}

const runAgain = defineFormAction({
  roles: [],
  // The form's "Yes, …" step sends the confirmation; a press that did not confirm starts nothing.
  input: z.object({ taskId: z.uuid(), confirm: z.literal("yes", { error: "Confirm first: press the “Yes, …” button to start it again." }) }),
  async handler({ taskId }, user) {
    const db = await getDb();
    const { runtime, worker, registry } = await getAppRuntime();
    // Refused before any lookup for someone no workflow lets start a run again, so ids tell them nothing.
    if (!registry.entries.some((entry) => entry.again && hasAnyRole(user.roles, entry.again.roles ?? ["operator"]))) throw new AppError("forbidden", "You may not start runs again.");
    const page = await loadRunPage(db, registry, taskId);
    const again = page ? registry.entry(page.run.workflow)?.again : undefined;
    if (!page || !again) throw new AppError("not_found", "There is no such run to start again.");
    if (!hasAnyRole(user.roles, again.roles ?? ["operator"])) throw new AppError("forbidden", `You may not start ${page.workflowLabel} again.`);
    // The workflow refuses (conflict) while another run over the same item is open, in the transaction that starts it.
    const started = await again.run({ db, runtime, by: user.id, now: new Date() }, taskId);
    worker.wake();
    revalidatePath("/runs");
    return started;
  },
});

/** What a row's "run again" button shows after a press. */
export type RunAgainState = ActionResult<{ taskId: string }>;

/** Starts another run over an ended run's item, where its workflow offers that; refused while one is open. */
export async function runAgainAction(_previous: RunAgainState | null, formData: FormData): Promise<RunAgainState> {
  return runAgain(formData);
}
