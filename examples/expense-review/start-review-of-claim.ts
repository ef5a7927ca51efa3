import { AppError, type Db, type Runtime } from "parley/workflows";
import { claimOfReview, findOpenReviewOfClaim, lockClaim } from "./queries";
import { ReviewClaim } from "./review-claim";
import { type ReviewTask, reviewTasks } from "./schema";

const OPEN_AS: Record<string, string> = {
  running: "is running",
  waiting: "is waiting for an answer",
  retryable: "failed on a model error and can be retried from its run page",
};

/**
 * Starts another review of the claim an earlier review was about, put to the same person as its last
 * review. Refused (`conflict`) while a review of that claim is still open; `not_found` for an unknown review.
 */
export async function startReviewOfClaim(
  db: Db,
  runtime: Runtime,
  input: { reviewTaskId: string; createdBy: string },
): Promise<{ task: ReviewTask }> {
  return db.transaction(async (tx) => {
    const executor = tx as unknown as Db;
    // The claim's row lock makes "is one open? then start" one step: a concurrent start waits here, then sees ours.
    const claimId = await claimOfReview(executor, input.reviewTaskId);
    const claim = claimId ? await lockClaim(executor, claimId) : undefined;
    if (!claimId || !claim) throw new AppError("not_found", "There is no such review.");
    const open = await findOpenReviewOfClaim(executor, claimId);
    if (open) {
      throw new AppError("conflict", `This claim already has a review open: it ${OPEN_AS[open.status] ?? open.status}. Wait for it to finish before starting another.`);
    }
    const [task] = await tx
      .insert(reviewTasks)
      .values({ claimId, assigneeId: claim.lastAssigneeId, createdBy: input.createdBy })
      .returning();
    await runtime.start(ReviewClaim, task!, { db: executor });
    return { task: task! };
  });
}
