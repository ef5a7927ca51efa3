import { sql } from "drizzle-orm";
import { type Db, queryRows, type RunStatus } from "parley/workflows";

/**
 * A review of this claim whose run has not ended (running, waiting, or failed but retryable), if
 * any. Call inside the transaction that starts a new review after {@link lockClaim}.
 */
export async function findOpenReviewOfClaim(db: Db, claimId: string): Promise<{ taskId: string; status: RunStatus } | undefined> {
  const [row] = await queryRows<{ task_id: string; status: RunStatus }>(
    db,
    sql`select t.id as task_id, w.status
          from review_tasks t join workflow_instances w on w.task_id = t.id
         where t.claim_id = ${claimId} and w.status in ('running', 'waiting', 'retryable')
         order by t.created_at desc limit 1`,
  );
  return row ? { taskId: row.task_id, status: row.status } : undefined;
}

/**
 * Locks a claim's row for the rest of the transaction, so two starts for the same claim take turns
 * (the second sees the first's open review). Returns the claim's latest review's assignee, or
 * undefined for an unknown claim.
 */
export async function lockClaim(db: Db, claimId: string): Promise<{ lastAssigneeId: string | null } | undefined> {
  const [claim] = await queryRows<{ id: string }>(db, sql`select id from claims where id = ${claimId} for update`);
  if (!claim) return undefined;
  const [last] = await queryRows<{ assignee_id: string | null }>(
    db,
    sql`select assignee_id from review_tasks where claim_id = ${claimId} order by created_at desc limit 1`,
  );
  return { lastAssigneeId: last?.assignee_id ?? null };
}

/** The claim a review task is about, for "Review again". */
export async function claimOfReview(db: Db, taskId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ claim_id: string }>(db, sql`select claim_id from review_tasks where id = ${taskId}`);
  return row?.claim_id;
}
