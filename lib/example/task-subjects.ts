import { eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { type Claim, claims, reviewTasks } from "@/db/schema";
import { claimBrief, formatAmount } from "./claim-brief";

/** What a task is about, in a line: what the inbox says a question is "about". */
export interface TaskSubject {
  /** e.g. "Claim: Team dinner after the launch". */
  title: string;
  /** e.g. "$412.80 at Luigi's Trattoria on 2026-11-20". */
  summary: string;
}

function subjectOf(claim: Claim): TaskSubject {
  return { title: `Claim: ${claim.title}`, summary: `${formatAmount(claim.amountCents, claim.currency)} at ${claim.merchant} on ${claim.incurredOn}` };
}

/** The subjects of several review tasks, in one query. */
export async function describeTasks(db: Db, taskIds: readonly string[]): Promise<Map<string, TaskSubject>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db
    .select({ taskId: reviewTasks.id, claim: claims })
    .from(reviewTasks)
    .innerJoin(claims, eq(claims.id, reviewTasks.claimId))
    .where(inArray(reviewTasks.id, [...new Set(taskIds)]));
  return new Map(rows.map((row) => [row.taskId, subjectOf(row.claim)]));
}

/** A review task's claim in full, for the question page's context. */
export async function claimForTask(db: Db, taskId: string): Promise<{ claim: Claim; brief: string } | undefined> {
  const [row] = await db.select({ claim: claims }).from(reviewTasks).innerJoin(claims, eq(claims.id, reviewTasks.claimId)).where(eq(reviewTasks.id, taskId));
  return row ? { claim: row.claim, brief: claimBrief(row.claim) } : undefined;
}
