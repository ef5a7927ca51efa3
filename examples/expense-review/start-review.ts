import type { Db, Runtime } from "parley/workflows";
import { ReviewClaim } from "./review-claim";
import { claims, type NewClaim, type ReviewTask, reviewTasks } from "./schema";

/** Starts a review of a new claim: the claim, its task and the ReviewClaim run. */
export async function startReview(
  db: Db,
  runtime: Runtime,
  input: { claim: Omit<NewClaim, "id" | "createdAt">; assigneeId?: string | null; createdBy?: string | null },
): Promise<ReviewTask> {
  // The claim, the task and its run commit together: there is never a task nobody is working on.
  return db.transaction(async (tx) => {
    const [claim] = await tx.insert(claims).values(input.claim).returning();
    const [task] = await tx
      .insert(reviewTasks)
      .values({ claimId: claim!.id, assigneeId: input.assigneeId ?? null, createdBy: input.createdBy ?? null })
      .returning();
    await runtime.start(ReviewClaim, task!, { db: tx as unknown as Db });
    return task!;
  });
}
