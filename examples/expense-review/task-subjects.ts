import { eq, inArray } from "drizzle-orm";
import type { ContextPanel, Db, TaskSubject } from "parley/workflows";
import { formatAmount } from "./claim-brief";
import { type Claim, claims, type ReviewTask, reviewTasks } from "./schema";

function subjectOf(claim: Claim, task: Pick<ReviewTask, "createdBy">): TaskSubject {
  return {
    title: `Claim: ${claim.title}`,
    summary: `${formatAmount(claim.amountCents, claim.currency)} at ${claim.merchant} on ${claim.incurredOn}`,
    startedBy: task.createdBy,
  };
}

/** What several review tasks are about, in a line each (one query): "Claim: Team dinner", "412.80 USD at Luigi's…". */
export async function describeReviews(db: Db, taskIds: readonly string[]): Promise<Map<string, TaskSubject>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db
    .select({ taskId: reviewTasks.id, createdBy: reviewTasks.createdBy, claim: claims })
    .from(reviewTasks)
    .innerJoin(claims, eq(claims.id, reviewTasks.claimId))
    .where(inArray(reviewTasks.id, [...new Set(taskIds)]));
  return new Map(rows.map((row) => [row.taskId, subjectOf(row.claim, row)]));
}

/** The claim beside its questions and on its run page: amount, merchant, date, description, and the Auditor's decision once made. */
export async function claimContext(db: Db, taskId: string): Promise<ContextPanel | undefined> {
  const [row] = await db.select({ claim: claims, task: reviewTasks }).from(reviewTasks).innerJoin(claims, eq(claims.id, reviewTasks.claimId)).where(eq(reviewTasks.id, taskId));
  if (!row) return undefined;
  const { claim, task } = row;
  return {
    title: claim.title,
    facts: [
      { label: "Amount", value: formatAmount(claim.amountCents, claim.currency) },
      { label: "Merchant", value: claim.merchant },
      { label: "Date", value: claim.incurredOn },
      { label: "Description", value: claim.description },
      ...(task.decision ? [{ label: "Decision", value: `${task.decision}${task.decisionReason ? ` — ${task.decisionReason}` : ""}` }] : []),
    ],
  };
}
