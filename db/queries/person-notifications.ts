import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { type Db, queryRows, toDate } from "../client";
import { asks, slots } from "../schema/runtime";
import { type PersonNotification, personNotifications, users } from "../schema/users";
import { a, bareName, columnList, s } from "./read-aliases";

/** A person's notification, as these statements name it. */
const n = alias(personNotifications, "n");
/** The notifications to store, as JSON rows named and typed as their columns. */
const r = alias(personNotifications, "r");
/** A person's inbox visit before this one (markInboxSeen's CTE of their row). */
const previous = alias(users, "previous");

/** What a notification is about. */
export type PersonNotificationKind = PersonNotification["kind"];

/** A notification to write: for whom, of what kind, about which task, question and slot. */
export interface NewPersonNotification {
  userId: string;
  kind: PersonNotificationKind;
  taskId?: string | null;
  questionId?: string | null;
  slotId?: string | null;
  data?: Record<string, unknown>;
}

/**
 * Writes notifications. A `question` notification is written at most once per person and question
 * (an agent's ask is announced again when its slot opens); every other kind each time. Returns the
 * rows written.
 */
export async function insertPersonNotifications(db: Db, notifications: readonly NewPersonNotification[], at: Date): Promise<{ id: string; userId: string }[]> {
  if (notifications.length === 0) return [];
  const rows = JSON.stringify(
    notifications.map((each) => ({
      [personNotifications.userId.name]: each.userId,
      [personNotifications.kind.name]: each.kind,
      [personNotifications.taskId.name]: each.taskId ?? null,
      [personNotifications.questionId.name]: each.questionId ?? null,
      [personNotifications.slotId.name]: each.slotId ?? null,
      [personNotifications.data.name]: each.data ?? {},
    })),
  );
  const inserted = await queryRows<{ id: string; user_id: string }>(
    db,
    sql`insert into ${personNotifications} (${columnList([personNotifications.userId, personNotifications.kind, personNotifications.taskId, personNotifications.questionId, personNotifications.slotId, personNotifications.data, personNotifications.createdAt])})
        select ${r.userId}, ${r.kind}, ${r.taskId}, ${r.questionId}, ${r.slotId}, ${r.data}, ${at.toISOString()}::timestamptz
          from jsonb_to_recordset(${rows}::jsonb) as ${r}(${bareName(personNotifications.userId)} uuid, ${bareName(personNotifications.kind)} text,
            ${bareName(personNotifications.taskId)} uuid, ${bareName(personNotifications.questionId)} uuid, ${bareName(personNotifications.slotId)} uuid,
            ${bareName(personNotifications.data)} jsonb)
         where ${r.kind} <> 'question'
            or not exists (select 1 from ${personNotifications} ${n}
                            where ${n.userId} = ${r.userId} and ${n.kind} = 'question' and ${n.questionId} = ${r.questionId})
        returning ${personNotifications.id} as id, ${personNotifications.userId} as user_id`,
  );
  return inserted.map((row) => ({ id: row.id, userId: row.user_id }));
}

/** The bell counts this far and then says "99+": past it, counting reads a notification (and its question) per row. */
export const UNREAD_COUNT_CAP = 99;

/** How many of a person's notifications are unread: exact up to {@link UNREAD_COUNT_CAP}; above it, the cap with `atLeast`. */
export interface UnreadCount {
  count: number;
  atLeast: boolean;
}

/** How many of a person's notifications are unread and about work still open (or about no question): the bell's count. */
export async function countUnreadNotifications(db: Db, userId: string): Promise<UnreadCount> {
  // One about a question no longer open (answered, by anyone, or ended) asks nothing more of its reader: not counted.
  const rows = await queryRows<{ count: number | string }>(
    db,
    sql`select count(*) as count from (
          select 1 from ${personNotifications} ${n} left join ${asks} ${a} on ${a.id} = ${n.questionId} left join ${slots} ${s} on ${s.id} = ${a.slotId}
           where ${n.userId} = ${userId} and ${n.readAt} is null and (${a.id} is null or ${QUESTION_STILL_OPEN})
           limit ${UNREAD_COUNT_CAP + 1}) capped`,
  );
  const count = Number(rows[0]?.count ?? 0);
  return { count: Math.min(count, UNREAD_COUNT_CAP), atLeast: count > UNREAD_COUNT_CAP };
}

/** Marks `userId`'s unread notifications about one question read (they opened it); returns how many were unread. */
export async function markQuestionNotificationsRead(db: Db, userId: string, questionId: string, at: Date): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update ${personNotifications} set ${bareName(personNotifications.readAt)} = ${at.toISOString()}::timestamptz
         where ${personNotifications.userId} = ${userId} and ${personNotifications.questionId} = ${questionId} and ${personNotifications.readAt} is null
        returning ${personNotifications.id} as id`,
  );
  return rows.length;
}

/**
 * Whether a notification's question (`a`, its slot `s`) still waits for an answer: not answered (an
 * agent's question keeps `open` until its run reads the answer, so who answered says it), not ended
 * with nothing, its wait (if any) not finished, expired or closed.
 */
const QUESTION_STILL_OPEN = sql`(${a.status} = 'open' and ${a.answeredBy} is null and (${s.id} is null or ${s.status} = 'open'))`;

/** A notification as the list shows it, with the question's headline and state as they are now. */
export interface PersonNotificationRow {
  id: string;
  kind: PersonNotificationKind;
  taskId: string | null;
  questionId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
  readAt: Date | null;
  /** The question's headline (its title, else its first field's question), when it names one. */
  headline: string | null;
  /** Whether the question it names still waits for an answer; null when it names none. */
  questionOpen: boolean | null;
}

/** A person's newest notifications, newest first: only theirs. */
export async function listNotificationsForUser(db: Db, userId: string, limit: number): Promise<PersonNotificationRow[]> {
  const rows = await queryRows<{
    id: string;
    kind: PersonNotificationKind;
    task_id: string | null;
    question_id: string | null;
    data: Record<string, unknown> | string | null;
    created_at: Date | string;
    read_at: Date | string | null;
    headline: string | null;
    question_open: boolean | null;
  }>(
    db,
    sql`select ${n.id} as id, ${n.kind} as kind, ${n.taskId} as task_id, ${n.questionId} as question_id, ${n.data} as data,
               ${n.createdAt} as created_at, ${n.readAt} as read_at,
               coalesce(${a.title}, ${a.spec} ->> 'title', ${a.spec} #>> '{fields,0,question}') as headline,
               case when ${a.id} is null then null else ${QUESTION_STILL_OPEN} end as question_open
          from ${personNotifications} ${n} left join ${asks} ${a} on ${a.id} = ${n.questionId} left join ${slots} ${s} on ${s.id} = ${a.slotId}
         where ${n.userId} = ${userId}
         order by ${n.createdAt} desc, ${n.id} desc
         limit ${limit}`,
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    taskId: row.task_id,
    questionId: row.question_id,
    data: (typeof row.data === "string" ? JSON.parse(row.data) : row.data) ?? {},
    createdAt: toDate(row.created_at),
    readAt: toDate(row.read_at),
    headline: row.headline,
    questionOpen: row.question_open,
  }));
}

/**
 * Marks one of `userId`'s notifications read (one already read stays as it was) and returns what it
 * is about; undefined when they have no such notification.
 */
export async function markNotificationRead(db: Db, userId: string, id: string, at: Date): Promise<{ questionId: string | null; taskId: string | null } | undefined> {
  const rows = await queryRows<{ question_id: string | null; task_id: string | null }>(
    db,
    sql`update ${personNotifications} set ${bareName(personNotifications.readAt)} = coalesce(${personNotifications.readAt}, ${at.toISOString()}::timestamptz)
         where ${personNotifications.id} = ${id} and ${personNotifications.userId} = ${userId}
        returning ${personNotifications.questionId} as question_id, ${personNotifications.taskId} as task_id`,
  );
  const row = rows[0];
  return row ? { questionId: row.question_id, taskId: row.task_id } : undefined;
}

/** Marks every unread notification of `userId` read; returns how many were. */
export async function markAllNotificationsRead(db: Db, userId: string, at: Date): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update ${personNotifications} set ${bareName(personNotifications.readAt)} = ${at.toISOString()}::timestamptz
         where ${personNotifications.userId} = ${userId} and ${personNotifications.readAt} is null returning ${personNotifications.id} as id`,
  );
  return rows.length;
}

/**
 * Records that `userId` looked at their inbox at `at`, and returns when they had looked before
 * (null: never), in one statement, so a question arriving meanwhile is new on one view or the next.
 */
export async function markInboxSeen(db: Db, userId: string, at: Date): Promise<Date | null> {
  const rows = await queryRows<{ previous: Date | string | null }>(
    db,
    sql`with ${previous} as (select ${users.id}, ${users.inboxSeenAt} from ${users} where ${users.id} = ${userId} for update)
        update ${users} set ${bareName(users.inboxSeenAt)} = ${at.toISOString()}::timestamptz
          from ${previous} where ${users.id} = ${previous.id}
        returning ${previous.inboxSeenAt} as previous`,
  );
  return toDate(rows[0]?.previous ?? null);
}

/** The current assignee of an open slot, with its task and question, read in the caller's transaction. */
export async function findOpenSlotAssignee(db: Db, slotId: string): Promise<{ assigneeId: string; taskId: string; questionId: string | null; headline: string | null } | undefined> {
  const rows = await queryRows<{ assignee_id: string; task_id: string; question_id: string | null; headline: string | null }>(
    db,
    sql`select ${s.assigneeId} as assignee_id, ${s.taskId} as task_id, ${a.id} as question_id,
               coalesce(${a.title}, ${a.spec} ->> 'title', ${a.spec} #>> '{fields,0,question}') as headline
          from ${slots} ${s} left join ${asks} ${a} on ${a.slotId} = ${s.id}
         where ${s.id} = ${slotId} and ${s.status} = 'open' and ${s.assigneeId} is not null
         limit 1`,
  );
  const row = rows[0];
  return row ? { assigneeId: row.assignee_id, taskId: row.task_id, questionId: row.question_id, headline: row.headline } : undefined;
}
