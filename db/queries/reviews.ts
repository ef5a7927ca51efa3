import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../client";

/** One review as the operators' list shows it. */
export interface ReviewRow {
  taskId: string;
  claimTitle: string;
  amountCents: number;
  currency: string;
  merchant: string;
  state: string | null;
  status: string | null;
  decision: string | null;
  decisionReason: string | null;
  startedBy: string | null;
  startedAt: Date;
  /** Whom an open wait is on, by name; null when nothing is waiting on a person. */
  waitingOn: string | null;
}

/** Every review, newest first, with its run's state and whom it waits on (one query). */
export async function listReviews(db: Db, limit = 200): Promise<ReviewRow[]> {
  const rows = await queryRows<{
    task_id: string;
    title: string;
    amount_cents: number;
    currency: string;
    merchant: string;
    state: string | null;
    status: string | null;
    decision: string | null;
    decision_reason: string | null;
    started_by: string | null;
    created_at: string | Date;
    waiting_on: string | null;
  }>(
    db,
    sql`select t.id as task_id, c.title, c.amount_cents, c.currency, c.merchant, w.state, w.status, t.decision,
               t.decision_reason, creator.name as started_by, t.created_at,
               (select coalesce(assignee.name, 'any assignee') from slots s left join users assignee on assignee.id = s.assignee_id
                 where s.task_id = t.id and s.status = 'open' order by s.opened_at limit 1) as waiting_on
          from review_tasks t
          join claims c on c.id = t.claim_id
          left join workflow_instances w on w.task_id = t.id
          left join users creator on creator.id = t.created_by
         order by t.created_at desc
         limit ${limit}`,
  );
  return rows.map((row) => ({
    taskId: row.task_id,
    claimTitle: row.title,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    merchant: row.merchant,
    state: row.state,
    status: row.status,
    decision: row.decision,
    decisionReason: row.decision_reason,
    startedBy: row.started_by,
    startedAt: new Date(row.created_at),
    waitingOn: row.waiting_on,
  }));
}

/** The people who may be put the Auditor's questions (assignees), by name. */
export async function listAssignees(db: Db): Promise<{ id: string; name: string; away: boolean }[]> {
  return queryRows<{ id: string; name: string; away: boolean }>(
    db,
    sql`select id, name, away from users where 'assignee' = any(roles) order by name`,
  );
}
