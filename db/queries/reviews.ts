import { type SQL, sql } from "drizzle-orm";
import type { RunStatus } from "../schema";
import { type Db, queryRows } from "../client";

/**
 * Where a review stands, as the operators' list filters it. `nothing` is a run that ended in failure
 * because a question got no answer (its reason recorded: away, expired, refused, non-interactive);
 * `failed` is any other failure, including a model error that can be retried.
 */
export const REVIEW_STATES = ["running", "waiting", "completed", "failed", "nothing"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** One review as the operators' list shows it. */
export interface ReviewRow {
  taskId: string;
  claimId: string;
  claimTitle: string;
  amountCents: number;
  currency: string;
  merchant: string;
  state: string | null;
  status: RunStatus | null;
  /** The list's filter category (see {@link REVIEW_STATES}); null before the run exists. */
  reviewState: ReviewState | null;
  /** Why a question got no answer, when one did not (away, expired, refused, non-interactive). */
  nothingReason: string | null;
  decision: string | null;
  decisionReason: string | null;
  assigneeId: string | null;
  startedBy: string | null;
  startedAt: Date;
  /** Whom an open wait is on, by name; null when nothing is waiting on a person. */
  waitingOn: string | null;
}

// Every review with its run, its nothing-reason and its filter category: one definition for the list and its counts.
const REVIEWS = sql`
  with base as (
    select t.id as task_id, t.claim_id, t.assignee_id, t.decision, t.decision_reason, t.created_at, t.created_by,
           w.state, w.status,
           coalesce(t.reimbursement_nothing,
                    (select a.reason from asks a where a.task_id = t.id and a.status = 'nothing' order by a.answered_at desc nulls last limit 1),
                    (select 'expired' from slots s where s.task_id = t.id and s.status = 'expired' limit 1)) as nothing_reason
      from review_tasks t
      left join workflow_instances w on w.task_id = t.id
  ), reviews as (
    select base.*,
           case when status is null then null
                when status = 'failed' and nothing_reason is not null then 'nothing'
                when status in ('failed', 'retryable') then 'failed'
                else status end as review_state
      from base
  )`;

/** Every review (or those in one state), newest first, with its run's state and whom it waits on (one query). */
export async function listReviews(db: Db, options: { state?: ReviewState; limit?: number } = {}): Promise<ReviewRow[]> {
  const filter: SQL = options.state ? sql`where r.review_state = ${options.state}` : sql``;
  const rows = await queryRows<{
    task_id: string;
    claim_id: string;
    title: string;
    amount_cents: number;
    currency: string;
    merchant: string;
    state: string | null;
    status: RunStatus | null;
    review_state: ReviewState | null;
    nothing_reason: string | null;
    decision: string | null;
    decision_reason: string | null;
    assignee_id: string | null;
    started_by: string | null;
    created_at: string | Date;
    waiting_on: string | null;
  }>(
    db,
    sql`${REVIEWS}
        select r.task_id, r.claim_id, c.title, c.amount_cents, c.currency, c.merchant, r.state, r.status, r.review_state,
               r.nothing_reason, r.decision, r.decision_reason, r.assignee_id, creator.name as started_by, r.created_at,
               (select coalesce(assignee.name, 'any assignee') from slots s left join users assignee on assignee.id = s.assignee_id
                 where s.task_id = r.task_id and s.status = 'open' order by s.opened_at limit 1) as waiting_on
          from reviews r
          join claims c on c.id = r.claim_id
          left join users creator on creator.id = r.created_by
          ${filter}
         order by r.created_at desc
         limit ${options.limit ?? 200}`,
  );
  return rows.map((row) => ({
    taskId: row.task_id,
    claimId: row.claim_id,
    claimTitle: row.title,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    merchant: row.merchant,
    state: row.state,
    status: row.status,
    reviewState: row.review_state,
    nothingReason: row.nothing_reason,
    decision: row.decision,
    decisionReason: row.decision_reason,
    assigneeId: row.assignee_id,
    startedBy: row.started_by,
    startedAt: new Date(row.created_at),
    waitingOn: row.waiting_on,
  }));
}

/** How many reviews are in each state (every state present, zero when none). */
export async function countReviewsByState(db: Db): Promise<Record<ReviewState, number>> {
  const rows = await queryRows<{ review_state: ReviewState | null; count: number | string }>(
    db,
    sql`${REVIEWS} select review_state, count(*) as count from reviews group by review_state`,
  );
  const counts = Object.fromEntries(REVIEW_STATES.map((state) => [state, 0])) as Record<ReviewState, number>;
  for (const row of rows) if (row.review_state) counts[row.review_state] = Number(row.count);
  return counts;
}

/** The people who may be put the Auditor's questions (assignees), by name. */
export async function listAssignees(db: Db): Promise<{ id: string; name: string; away: boolean }[]> {
  return queryRows<{ id: string; name: string; away: boolean }>(
    db,
    sql`select id, name, away from users where 'assignee' = any(roles) order by name`,
  );
}

/** A review as its run page heads it: the claim, the task and where its run stands. */
export interface ReviewRun {
  taskId: string;
  claim: { id: string; title: string; amountCents: number; currency: string; merchant: string; incurredOn: string; description: string };
  assignee: string | null;
  startedBy: string | null;
  startedAt: Date;
  /** Whom an open wait is on, by name; null when nothing is waiting on a person. */
  waitingOn: string | null;
  decision: string | null;
  decisionReason: string | null;
  run: { workflow: string; state: string; status: RunStatus; lastError: string | null; updatedAt: Date } | null;
}

/** One review task with its claim and run, or undefined for an unknown task. */
export async function findReviewRun(db: Db, taskId: string): Promise<ReviewRun | undefined> {
  const [row] = await queryRows<{
    task_id: string;
    claim_id: string;
    title: string;
    amount_cents: number;
    currency: string;
    merchant: string;
    incurred_on: string | Date;
    description: string;
    assignee: string | null;
    started_by: string | null;
    created_at: string | Date;
    waiting_on: string | null;
    decision: string | null;
    decision_reason: string | null;
    workflow: string | null;
    state: string | null;
    status: RunStatus | null;
    last_error: string | null;
    updated_at: string | Date | null;
  }>(
    db,
    sql`select t.id as task_id, c.id as claim_id, c.title, c.amount_cents, c.currency, c.merchant, c.incurred_on, c.description,
               assignee.name as assignee, creator.name as started_by, t.created_at, t.decision, t.decision_reason,
               w.workflow, w.state, w.status, w.last_error, w.updated_at,
               (select coalesce(waiting.name, 'any assignee') from slots s left join users waiting on waiting.id = s.assignee_id
                 where s.task_id = t.id and s.status = 'open' order by s.opened_at limit 1) as waiting_on
          from review_tasks t
          join claims c on c.id = t.claim_id
          left join users assignee on assignee.id = t.assignee_id
          left join users creator on creator.id = t.created_by
          left join lateral (select * from workflow_instances wi where wi.task_id = t.id order by wi.created_at limit 1) w on true
         where t.id = ${taskId}`,
  );
  if (!row) return undefined;
  return {
    taskId: row.task_id,
    claim: {
      id: row.claim_id,
      title: row.title,
      amountCents: Number(row.amount_cents),
      currency: row.currency,
      merchant: row.merchant,
      incurredOn: typeof row.incurred_on === "string" ? row.incurred_on.slice(0, 10) : row.incurred_on.toISOString().slice(0, 10),
      description: row.description,
    },
    assignee: row.assignee,
    startedBy: row.started_by,
    startedAt: new Date(row.created_at),
    waitingOn: row.waiting_on,
    decision: row.decision,
    decisionReason: row.decision_reason,
    run:
      row.workflow && row.state && row.status
        ? { workflow: row.workflow, state: row.state, status: row.status, lastError: row.last_error, updatedAt: new Date(row.updated_at ?? row.created_at) }
        : null,
  };
}

/** The names of these people, by id (for the run page's "answered by"). */
export async function namesOf(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; name: string }>(db, sql`select id, name from users where id = any(${`{${ids.join(",")}}`}::uuid[])`);
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** What was answered to each of a task's questions, by question (ask) id. */
export async function listAnswersForTask(db: Db, taskId: string): Promise<Map<string, unknown>> {
  const rows = await queryRows<{ id: string; answer: unknown }>(
    db,
    sql`select id, answer from asks where task_id = ${taskId} and answer is not null`,
  );
  return new Map(rows.map((row) => [row.id, row.answer]));
}

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
