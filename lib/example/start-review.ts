import type { Db } from "@/db/client";
import { claims, type NewClaim, type ReviewTask, reviewTasks } from "@/db/schema";
import type { Runtime } from "@/lib/runtime";
import { ReviewClaim } from "./review-claim";

/** Starts a review of a new claim: the claim, its task and the ReviewClaim run. */
export async function startReview(
  db: Db,
  runtime: Runtime,
  input: { claim: Omit<NewClaim, "id" | "createdAt">; assigneeId?: string | null; createdBy?: string | null },
): Promise<ReviewTask> {
  const task = await db.transaction(async (tx) => {
    const [claim] = await tx.insert(claims).values(input.claim).returning();
    const [created] = await tx
      .insert(reviewTasks)
      .values({ claimId: claim!.id, assigneeId: input.assigneeId ?? null, createdBy: input.createdBy ?? null })
      .returning();
    return created!;
  });
  await runtime.start(ReviewClaim, task);
  return task;
}
