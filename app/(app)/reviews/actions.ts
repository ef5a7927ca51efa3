"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { listAssignees } from "@/db/queries/reviews";
import { getAppRuntime } from "@/lib/app-runtime";
import { claimInput } from "@/lib/example/claim-input";
import { startReview } from "@/lib/example/start-review";
import { startReviewOfClaim } from "@/lib/example/start-review-of-claim";
import { AppError } from "@/lib/errors";
import { type ActionResult, defineFormAction, formDataToObject } from "@/lib/server/define-action";

const startClaimReview = defineFormAction({
  roles: ["operator"],
  input: claimInput,
  async handler(claim, user) {
    const db = await getDb();
    // The id comes from the browser: only a real assignee may be put the questions.
    if (!(await listAssignees(db)).some((person) => person.id === claim.assigneeId)) {
      throw new AppError("invalid_input", "Choose one of the assignees listed.");
    }
    const { runtime, worker } = await getAppRuntime();
    const task = await startReview(db, runtime, {
      claim: { title: claim.title, amountCents: claim.amount, currency: claim.currency, merchant: claim.merchant, incurredOn: claim.incurredOn, description: claim.description },
      assigneeId: claim.assigneeId,
      createdBy: user.id,
    });
    worker.wake();
    revalidatePath("/reviews");
    return { taskId: task.id, title: claim.title };
  },
});

/** What the start-review form shows after a submission: the result, and what was typed (React 19 resets the form). */
export type StartReviewState = ActionResult<{ taskId: string; title: string }> & { values: Record<string, string> };

/** Operators only: files a claim and starts the Auditor's review of it. */
export async function startReviewAction(_previous: StartReviewState | null, formData: FormData): Promise<StartReviewState> {
  const raw = formDataToObject(formData);
  const result = await startClaimReview(formData);
  const values: Record<string, string> = {};
  for (const key of ["title", "amount", "currency", "merchant", "incurredOn", "description", "assigneeId"]) {
    if (typeof raw[key] === "string") values[key] = raw[key];
  }
  // After a success the form starts empty again; after a refusal it keeps everything typed.
  if (result.ok) return { ...result, values: {} };
  return { ...result, values };
}

const startClaimReviewAgain = defineFormAction({
  roles: ["operator"],
  input: z.object({ claimId: z.uuid() }),
  async handler({ claimId }, user) {
    const db = await getDb();
    const { runtime, worker } = await getAppRuntime();
    // Refused (conflict) while a review of this claim is open; the check and the start are one transaction.
    const { task } = await startReviewOfClaim(db, runtime, { claimId, createdBy: user.id });
    worker.wake();
    revalidatePath("/reviews");
    return { taskId: task.id };
  },
});

/** What a row's "Review again" button shows after a press. */
export type ReviewAgainState = ActionResult<{ taskId: string }>;

/** Operators only: starts another review of a claim already filed; refused while one is open. */
export async function reviewAgainAction(_previous: ReviewAgainState | null, formData: FormData): Promise<ReviewAgainState> {
  return startClaimReviewAgain(formData);
}
