import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DeliveryReport, QuestionNotice } from "../types/question-notice";
import type { StoredWebhookEvent } from "../types/webhook-event";
import { type Db, queryRows } from "../client";
import { asks, groupMembers, slots, users } from "../schema";
import { notificationOutbox, OUTBOX_EVENT_KINDS, type OutboxEventKind } from "../schema/notifications";
import { a, bareName, columnList, s } from "./read-aliases";

/** The outbox as its statements name it: `o`; the rows a claim takes, `due`; rows handed in as JSON, `r` (keyed by the outbox's column names). */
const outbox = notificationOutbox;
const o = alias(notificationOutbox, "o");
const due = alias(notificationOutbox, "due");
const r = alias(notificationOutbox, "r");
/** A recipient `u` and a group membership `m` (findNoticeSource). */
const u = alias(users, "u");
const m = alias(groupMembers, "m");
/** The notifier's name each row of `unnest` gives (queueNotice): the statement's own. */
const notifierName = sql.identifier("name");
/** What a queued notice or event is inserted with. */
const INSERTED_COLUMNS = columnList([outbox.questionId, outbox.kind, outbox.notifier, outbox.notice, outbox.runAt, outbox.createdAt]);

/** Queues `notice` once for each notifier named; a question's opening is queued at most once per notifier. Returns how many rows it wrote. */
export async function queueNotice(db: Db, notice: QuestionNotice, notifiers: readonly string[], at: Date): Promise<number> {
  if (notifiers.length === 0) return 0;
  const rows = await queryRows<{ id: number }>(
    db,
    sql`insert into ${outbox} (${INSERTED_COLUMNS})
        select ${notice.id}::uuid, ${notice.kind}, ${notifierName}, ${JSON.stringify(notice)}::jsonb, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
          from unnest(${`{${notifiers.join(",")}}`}::text[]) as ${notifierName}
        on conflict (${bareName(outbox.questionId)}, ${bareName(outbox.notifier)}) where ${bareName(outbox.kind)} = 'question-opened' do nothing
        returning ${outbox.id}`,
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
  const rows = JSON.stringify(
    events.map((each) => ({ [outbox.questionId.name]: each.questionId, [outbox.kind.name]: each.kind, [outbox.notifier.name]: each.target, [outbox.notice.name]: each.event })),
  );
  const inserted = await queryRows<{ id: number }>(
    db,
    sql`insert into ${outbox} (${INSERTED_COLUMNS})
        select ${r.questionId}, ${r.kind}, ${r.notifier}, ${r.notice}, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
          from jsonb_to_recordset(${rows}::jsonb) as ${r}(${bareName(outbox.questionId)} uuid, ${bareName(outbox.kind)} text, ${bareName(outbox.notifier)} text, ${bareName(outbox.notice)} jsonb)
        on conflict (${bareName(outbox.questionId)}, ${bareName(outbox.notifier)}) where ${bareName(outbox.kind)} in ('ask-answered', 'ask-nothing') do nothing
        returning ${outbox.id}`,
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
    sql`with ${due} as (
          select ${outbox.id} from ${outbox}
           where ((${outbox.status} = 'queued' and ${outbox.runAt} <= ${at}::timestamptz)
              or (${outbox.status} = 'delivering' and ${outbox.lockedUntil} <= ${at}::timestamptz))
             and case when ${outbox.kind} = any(${eventKinds}::text[]) then ${outbox.notifier} = any(${textArray(options.deliverable.targets)}::text[])
                      else ${outbox.notifier} = any(${textArray(options.deliverable.notifiers)}::text[]) end
           order by ${outbox.runAt}, ${outbox.id} limit ${options.limit}
           for update skip locked
        )
        update ${outbox} ${o} set ${bareName(outbox.status)} = 'delivering', ${bareName(outbox.lockedUntil)} = ${options.leaseUntil.toISOString()}::timestamptz,
            ${bareName(outbox.deliveries)} = ${o.deliveries} + 1
          from ${due} where ${o.id} = ${due.id}
        returning ${o.id} as id, ${o.questionId} as question_id, ${o.kind} as kind, ${o.notifier} as notifier, ${o.notice} as notice, ${o.deliveries} as deliveries`,
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
  const rows = JSON.stringify(claimed.map((each) => ({ [outbox.id.name]: each.id, [outbox.deliveries.name]: each.deliveries })));
  await db.execute(
    sql`update ${outbox} ${o} set ${bareName(outbox.lockedUntil)} = ${until.toISOString()}::timestamptz
          from jsonb_to_recordset(${rows}::jsonb) as ${r}(${bareName(outbox.id)} bigint, ${bareName(outbox.deliveries)} integer)
         where ${o.id} = ${r.id} and ${o.deliveries} = ${r.deliveries} and ${o.status} = 'delivering'`,
  );
}

/**
 * Hands back deliveries a stopping drainer still holds: their leases end at `at`, so another drainer
 * claims them at once (and sends them again under the same webhook-id) instead of when the lease would
 * have run out. Only deliveries nobody has recorded or taken over since; returns how many went back.
 */
export async function releaseDeliveryLeases(db: Db, claimed: readonly Pick<ClaimedNotice, "id" | "deliveries">[], at: Date): Promise<number> {
  if (claimed.length === 0) return 0;
  const rows = JSON.stringify(claimed.map((each) => ({ [outbox.id.name]: each.id, [outbox.deliveries.name]: each.deliveries })));
  const released = await queryRows<{ id: number | string }>(
    db,
    sql`update ${outbox} ${o} set ${bareName(outbox.lockedUntil)} = ${at.toISOString()}::timestamptz
          from jsonb_to_recordset(${rows}::jsonb) as ${r}(${bareName(outbox.id)} bigint, ${bareName(outbox.deliveries)} integer)
         where ${o.id} = ${r.id} and ${o.deliveries} = ${r.deliveries} and ${o.status} = 'delivering'
        returning ${o.id} as id`,
  );
  return released.length;
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
    sql`update ${outbox}
           set ${bareName(outbox.status)} = ${status}, ${bareName(outbox.report)} = ${JSON.stringify(outcome.report)}::jsonb, ${bareName(outbox.lockedUntil)} = null,
               ${bareName(outbox.runAt)} = coalesce(${outcome.retryAt?.toISOString() ?? null}::timestamptz, ${outbox.runAt}),
               ${bareName(outbox.finishedAt)} = ${status === "queued" ? null : outcome.at.toISOString()}::timestamptz
         where ${outbox.id} = ${claimed.id} and ${outbox.status} = 'delivering' and ${outbox.deliveries} = ${claimed.deliveries}`,
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
    sql`select ${a.id} as id, ${a.taskId} as task_id, coalesce(${a.title}, ${a.spec} #>> '{fields,0,question}') as headline, coalesce(${a.agent}, ${a.workflow}) as asked_by,
               ${s.openedAt} as opened_at, ${s.dueAt} as due_at,
               (select coalesce(jsonb_agg(jsonb_build_object('userId', ${u.id}, 'name', ${u.name}, 'email', ${u.email}) order by ${u.name}), '[]'::jsonb)
                  from ${users} ${u}
                 where not ${u.away} and ${u.deactivatedAt} is null
                   and (case when ${s.assigneeId} is not null then ${u.id} = ${s.assigneeId}
                        else ${u.id} = any(${s.candidateIds})
                          or ${u.id} in (select ${m.userId} from ${groupMembers} ${m} where ${m.groupId} = any(${s.candidateGroupIds})) end)) as recipients
          from ${asks} ${a} join ${slots} ${s} on ${s.id} = ${a.slotId}
         where ${a.id} = ${questionId} and ${a.status} = 'open' and ${s.status} = 'open'`,
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
    sql`select ${outbox.id} as id, ${outbox.kind} as kind, ${outbox.notifier} as notifier, ${outbox.status} as status, ${outbox.deliveries} as deliveries,
          ${outbox.report} as report
        from ${outbox} where ${outbox.questionId} = ${questionId} order by ${outbox.id}`,
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
    sql`select ${o.id} as id, ${o.questionId} as question_id, ${a.taskId} as task_id, coalesce(${a.title}, ${a.spec} #>> '{fields,0,question}') as headline,
               ${o.kind} as kind, ${o.notifier} as notifier, ${o.status} as status, ${o.notice} as notice, ${o.report} as report,
               ${o.deliveries} as deliveries, ${o.finishedAt} as finished_at, ${o.runAt} as run_at
          from ${outbox} ${o} left join ${asks} ${a} on ${a.id} = ${o.questionId}
         where ${o.report} is not null and ${o.report} ->> 'status' = 'failed' and ${o.status} in ('failed', 'queued')
         order by coalesce(${o.finishedAt}, ${o.runAt}) desc, ${o.id} desc
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
