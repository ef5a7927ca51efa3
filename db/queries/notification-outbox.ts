import { sql } from "drizzle-orm";
import type { DeliveryReport, QuestionNotice } from "../types/question-notice";
import type { StoredWebhookEvent } from "../types/webhook-event";
import { type Db, queryRows } from "../client";
import { OUTBOX_EVENT_KINDS, type OutboxEventKind } from "../schema/notifications";

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

/** A webhook event to queue for one target. */
export interface NewOutboxEvent {
  /** The question it is about (an ask's event: the ask's question). */
  questionId: string;
  kind: OutboxEventKind;
  /** The target that delivers it, e.g. `webhook` (the global receiver) or `callback`. */
  target: string;
  event: StoredWebhookEvent;
}

/**
 * Queues webhook events, each once per question, kind family and target: an event already queued for
 * that question and target (by an earlier announce of the same change) is left as it is. Returns how
 * many rows it wrote.
 */
export async function queueEvents(db: Db, events: readonly NewOutboxEvent[], at: Date): Promise<number> {
  if (events.length === 0) return 0;
  const rows = JSON.stringify(events.map((each) => ({ question_id: each.questionId, kind: each.kind, notifier: each.target, notice: each.event })));
  const inserted = await queryRows<{ id: number }>(
    db,
    sql`insert into notification_outbox (question_id, kind, notifier, notice, run_at, created_at)
        select r.question_id, r.kind, r.notifier, r.notice, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
          from jsonb_to_recordset(${rows}::jsonb) as r(question_id uuid, kind text, notifier text, notice jsonb)
        on conflict (question_id, notifier) where kind in ('ask-answered', 'ask-nothing') do nothing
        returning id`,
  );
  return inserted.length;
}

interface ClaimedFields {
  id: number;
  questionId: string;
  /** The notifier (a notice) or target (an event) that delivers it. */
  notifier: string;
  /** Which delivery this is (1 for the first). */
  deliveries: number;
}

/** An outbox row a drainer has claimed: a question notice for a notifier, or a webhook event for a target. */
export type ClaimedNotice = ClaimedFields &
  ({ kind: QuestionNotice["kind"]; notice: QuestionNotice } | { kind: OutboxEventKind; event: StoredWebhookEvent });

/** What a drainer can deliver: the notifiers it has (for notices) and the targets it has (for events). */
export interface Deliverable {
  notifiers: readonly string[];
  targets: readonly string[];
}

const textArray = (values: readonly string[]) => `{${values.map((value) => JSON.stringify(value)).join(",")}}`;

/**
 * Claims up to `limit` rows that are due (or whose previous drainer's lease ran out), skipping rows
 * another drainer holds, and leases them until `leaseUntil`. Only rows this drainer can deliver are
 * claimed — a notice whose notifier, or an event whose target, it has — so an instance without, say,
 * the global webhook leaves those rows to one that has it instead of failing them.
 */
export async function claimDueNotices(db: Db, options: { at: Date; leaseUntil: Date; limit: number; deliverable: Deliverable }): Promise<ClaimedNotice[]> {
  const at = options.at.toISOString();
  const eventKinds = textArray(OUTBOX_EVENT_KINDS);
  const rows = await queryRows<{ id: number | string; question_id: string; kind: string; notifier: string; notice: unknown; deliveries: number | string }>(
    db,
    sql`with due as (
          select id from notification_outbox
           where ((status = 'queued' and run_at <= ${at}::timestamptz)
              or (status = 'delivering' and locked_until <= ${at}::timestamptz))
             and case when kind = any(${eventKinds}::text[]) then notifier = any(${textArray(options.deliverable.targets)}::text[])
                      else notifier = any(${textArray(options.deliverable.notifiers)}::text[]) end
           order by run_at, id limit ${options.limit}
           for update skip locked
        )
        update notification_outbox o set status = 'delivering', locked_until = ${options.leaseUntil.toISOString()}::timestamptz, deliveries = o.deliveries + 1
          from due where o.id = due.id
        returning o.id, o.question_id, o.kind, o.notifier, o.notice, o.deliveries`,
  );
  return rows.map((row): ClaimedNotice => {
    const fields = { id: Number(row.id), questionId: row.question_id, notifier: row.notifier, deliveries: Number(row.deliveries) };
    const stored: unknown = typeof row.notice === "string" ? JSON.parse(row.notice) : row.notice;
    return (OUTBOX_EVENT_KINDS as readonly string[]).includes(row.kind)
      ? { ...fields, kind: row.kind as OutboxEventKind, event: stored as StoredWebhookEvent }
      : { ...fields, kind: row.kind as QuestionNotice["kind"], notice: stored as QuestionNotice };
  });
}

/**
 * Extends to `until` the leases of deliveries a drainer still holds: those it claimed (the same
 * delivery, by its count) that nobody has recorded or taken over since. A live drainer renews while it
 * delivers, so its lease can be short and a dead one's rows are taken over soon.
 */
export async function renewDeliveryLeases(db: Db, claimed: readonly Pick<ClaimedNotice, "id" | "deliveries">[], until: Date): Promise<void> {
  if (claimed.length === 0) return;
  const rows = JSON.stringify(claimed.map((each) => ({ id: each.id, deliveries: each.deliveries })));
  await db.execute(
    sql`update notification_outbox o set locked_until = ${until.toISOString()}::timestamptz
          from jsonb_to_recordset(${rows}::jsonb) as r(id bigint, deliveries integer)
         where o.id = r.id and o.deliveries = r.deliveries and o.status = 'delivering'`,
  );
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
                 where not u.away and u.deactivated_at is null
                   and (case when s.assignee_id is not null then u.id = s.assignee_id
                        else u.id = any(s.candidate_ids)
                          or u.id in (select m.user_id from group_members m where m.group_id = any(s.candidate_group_ids)) end)) as recipients
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

/** An outbox row whose latest delivery failed: given up (`failed`), or queued to be tried again (`queued`). */
export interface FailedDeliveryRow {
  id: number;
  questionId: string;
  /** The question's run (task), when the question is still on record. */
  taskId: string | null;
  /** The question's title or first field's question, when it is on record. */
  headline: string | null;
  kind: string;
  notifier: string;
  status: "failed" | "queued";
  /** The notice (or event) as it was to be sent. */
  notice: QuestionNotice | StoredWebhookEvent;
  report: DeliveryReport;
  deliveries: number;
  /** When it was given up; null while it will be tried again. */
  finishedAt: Date | null;
  /** When it is tried again; for a row given up, when it was last due. */
  runAt: Date;
}

/**
 * The deliveries whose latest try failed, most recent first: those given up, and those queued to be
 * tried again after a failure. For the admins' list of failed deliveries.
 */
export async function listFailedDeliveries(db: Db, options: { limit: number }): Promise<FailedDeliveryRow[]> {
  const rows = await queryRows<{
    id: number | string;
    question_id: string;
    task_id: string | null;
    headline: string | null;
    kind: string;
    notifier: string;
    status: "failed" | "queued";
    notice: unknown;
    report: unknown;
    deliveries: number | string;
    finished_at: Date | string | null;
    run_at: Date | string;
  }>(
    db,
    sql`select o.id, o.question_id, a.task_id, coalesce(a.title, a.spec #>> '{fields,0,question}') as headline,
               o.kind, o.notifier, o.status, o.notice, o.report, o.deliveries, o.finished_at, o.run_at
          from notification_outbox o left join asks a on a.id = o.question_id
         where o.report is not null and o.report ->> 'status' = 'failed' and o.status in ('failed', 'queued')
         order by coalesce(o.finished_at, o.run_at) desc, o.id desc
         limit ${options.limit}`,
  );
  const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);
  const date = (value: Date | string) => (value instanceof Date ? value : new Date(value));
  return rows.map((row) => ({
    id: Number(row.id),
    questionId: row.question_id,
    taskId: row.task_id,
    headline: row.headline,
    kind: row.kind,
    notifier: row.notifier,
    status: row.status,
    notice: json(row.notice) as QuestionNotice | StoredWebhookEvent,
    report: json(row.report) as DeliveryReport,
    deliveries: Number(row.deliveries),
    finishedAt: row.finished_at === null ? null : date(row.finished_at),
    runAt: date(row.run_at),
  }));
}
