import { sql } from "drizzle-orm";
import type { DeliveryReport, QuestionNotice } from "../types/question-notice";
import { type Db, queryRows } from "../client";

/** Queues `notice` once for each notifier named; a question's opening is queued at most once per notifier. Returns how many rows it wrote. */
export async function queueNotice(db: Db, notice: QuestionNotice, notifiers: readonly string[], at: Date): Promise<number> {
  if (notifiers.length === 0) return 0;
  const rows = await queryRows<{ id: number }>(
    db,
    sql`insert into notification_outbox (question_id, kind, notifier, notice, run_at, created_at)
        select ${notice.id}::uuid, ${notice.kind}, name, ${JSON.stringify(notice)}::jsonb, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
          from unnest(${`{${notifiers.join(",")}}`}::text[]) as name
        on conflict (question_id, notifier) where kind = 'question-opened' do nothing
        returning id`,
  );
  return rows.length;
}

/** An outbox row a drainer has claimed. */
export interface ClaimedNotice {
  id: number;
  notifier: string;
  notice: QuestionNotice;
  /** Which delivery this is (1 for the first). */
  deliveries: number;
}

/**
 * Claims up to `limit` rows that are due (or whose previous drainer's lease ran out), skipping rows
 * another drainer holds, and leases them until `leaseUntil`.
 */
export async function claimDueNotices(db: Db, options: { at: Date; leaseUntil: Date; limit: number }): Promise<ClaimedNotice[]> {
  const at = options.at.toISOString();
  const rows = await queryRows<{ id: number | string; notifier: string; notice: QuestionNotice | string; deliveries: number | string }>(
    db,
    sql`with due as (
          select id from notification_outbox
           where (status = 'queued' and run_at <= ${at}::timestamptz)
              or (status = 'delivering' and locked_until <= ${at}::timestamptz)
           order by run_at, id limit ${options.limit}
           for update skip locked
        )
        update notification_outbox o set status = 'delivering', locked_until = ${options.leaseUntil.toISOString()}::timestamptz, deliveries = o.deliveries + 1
          from due where o.id = due.id
        returning o.id, o.notifier, o.notice, o.deliveries`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    notifier: row.notifier,
    notice: typeof row.notice === "string" ? (JSON.parse(row.notice) as QuestionNotice) : row.notice,
    deliveries: Number(row.deliveries),
  }));
}

/**
 * Records what became of a claimed delivery: done (`delivered` / `failed`) or queued again at
 * `retryAt`. Only the drainer still holding that delivery may record it.
 */
export async function recordDelivery(
  db: Db,
  claimed: Pick<ClaimedNotice, "id" | "deliveries">,
  outcome: { report: DeliveryReport; retryAt: Date | null; at: Date },
): Promise<void> {
  const status = outcome.report.status === "delivered" ? "delivered" : outcome.retryAt ? "queued" : "failed";
  await db.execute(
    sql`update notification_outbox
           set status = ${status}, report = ${JSON.stringify(outcome.report)}::jsonb, locked_until = null,
               run_at = coalesce(${outcome.retryAt?.toISOString() ?? null}::timestamptz, run_at),
               finished_at = ${status === "queued" ? null : outcome.at.toISOString()}::timestamptz
         where id = ${claimed.id} and status = 'delivering' and deliveries = ${claimed.deliveries}`,
  );
}

/** What a question's notice is made of, read in one query: the question, its open slot and whom it waits on. */
export interface NoticeSource {
  questionId: string;
  taskId: string;
  headline: string;
  askedBy: string;
  openedAt: Date;
  dueAt: Date | null;
  recipients: { userId: string; name: string; email: string }[];
}

/**
 * The source of a question's notice, or undefined when it has no open slot (nobody to tell yet).
 * Recipients: the slot's assignee when it has one, else every candidate; people marked away are left out.
 */
export async function findNoticeSource(db: Db, questionId: string): Promise<NoticeSource | undefined> {
  const rows = await queryRows<{
    id: string;
    task_id: string;
    headline: string | null;
    asked_by: string | null;
    opened_at: Date | string;
    due_at: Date | string | null;
    recipients: { userId: string; name: string; email: string }[] | string | null;
  }>(
    db,
    sql`select a.id, a.task_id, coalesce(a.title, a.spec #>> '{fields,0,question}') as headline, coalesce(a.agent, a.workflow) as asked_by,
               s.opened_at, s.due_at,
               (select coalesce(jsonb_agg(jsonb_build_object('userId', u.id, 'name', u.name, 'email', u.email) order by u.name), '[]'::jsonb)
                  from users u
                 where not u.away
                   and (case when s.assignee_id is not null then u.id = s.assignee_id else u.id = any(s.candidate_ids) end)) as recipients
          from asks a join slots s on s.id = a.slot_id
         where a.id = ${questionId} and a.status = 'open' and s.status = 'open'`,
  );
  const row = rows[0];
  if (!row) return undefined;
  const recipients = typeof row.recipients === "string" ? (JSON.parse(row.recipients) as NoticeSource["recipients"]) : (row.recipients ?? []);
  return {
    questionId: row.id,
    taskId: row.task_id,
    headline: row.headline ?? "",
    askedBy: row.asked_by ?? "Parley",
    openedAt: row.opened_at instanceof Date ? row.opened_at : new Date(row.opened_at),
    dueAt: row.due_at === null ? null : row.due_at instanceof Date ? row.due_at : new Date(row.due_at),
    recipients,
  };
}

/** The outbox rows of a question, oldest first (for tests and the admin screens). */
export async function listNoticesForQuestion(
  db: Db,
  questionId: string,
): Promise<{ id: number; kind: string; notifier: string; status: string; deliveries: number; report: DeliveryReport | null }[]> {
  const rows = await queryRows<{ id: number | string; kind: string; notifier: string; status: string; deliveries: number | string; report: DeliveryReport | string | null }>(
    db,
    sql`select id, kind, notifier, status, deliveries, report from notification_outbox where question_id = ${questionId} order by id`,
  );
  return rows.map((row) => ({
    id: Number(row.id),
    kind: row.kind,
    notifier: row.notifier,
    status: row.status,
    deliveries: Number(row.deliveries),
    report: typeof row.report === "string" ? (JSON.parse(row.report) as DeliveryReport) : row.report,
  }));
}
