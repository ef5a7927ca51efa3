import type { Db } from "@/db/client";
import { presentMembersOf } from "@/db/queries/group-routing";
import { findNoticeSource } from "@/db/queries/notification-outbox";
import {
  countUnreadNotifications,
  findOpenSlotAssignee,
  insertPersonNotifications,
  listNotificationsForUser,
  markAllNotificationsRead,
  markNotificationRead,
  markQuestionNotificationsRead,
  type NewPersonNotification,
  type PersonNotificationKind,
  type PersonNotificationRow,
  type UnreadCount,
} from "@/db/queries/person-notifications";
import { publishLiveEvent, publishLiveEvents } from "@/lib/live-events";
import type { Announce } from "@/lib/runtime";

export type { NewPersonNotification, PersonNotificationKind, UnreadCount };

/** An unread count in words: "12", or "more than 99" past what the bell counts. */
export function unreadWords(unread: UnreadCount): string {
  return unread.atLeast ? `more than ${unread.count}` : String(unread.count);
}

/** The live event a person's bell listens for: their notifications changed (one added, or read). */
export const NOTIFICATIONS_CHANGED = "notifications-changed";

/**
 * Tells people something in the app: writes their notifications and announces them live to each of
 * them. Pass the transaction of the change it tells of, so a notification exists exactly when that
 * change does (escalation, reminders and the runtime's announce hook all come through here). A
 * `question` notification is written once per person and question. Returns who was notified.
 */
export async function notifyInApp(db: Db, notifications: readonly NewPersonNotification[], at: Date = new Date()): Promise<string[]> {
  const written = await insertPersonNotifications(db, notifications, at);
  const userIds = [...new Set(written.map((row) => row.userId))];
  if (userIds.length > 0) await publishLiveEvent(db, { kind: NOTIFICATIONS_CHANGED, audience: { userIds } });
  return userIds;
}

/**
 * An announce hook that notifies people in the app, inside the transaction of the change: a
 * `question` notification for each person a question is put to (the same people its notices go to),
 * a `reassigned` one for whoever an open wait is moved to, and an `escalated` one for each member of
 * a group an escalation step adds to a wait. (A `remind` step goes through `remindOnEscalation`.)
 */
export function notifyInAppOnChanges(options: { now?: () => Date } = {}): Announce {
  return async (tx, changes) => {
    const notifications: NewPersonNotification[] = [];
    for (const change of changes) {
      if (change.kind === "question-asked" && change.questionId) {
        // An agent's ask is announced once before its slot opens (nobody to tell yet) and again when it is linked to one.
        const source = await findNoticeSource(tx, change.questionId);
        if (!source) continue;
        for (const recipient of source.recipients) {
          notifications.push({ userId: recipient.userId, kind: "question", taskId: source.taskId, questionId: source.questionId, data: { headline: source.headline, askedBy: source.askedBy } });
        }
      } else if (change.kind === "slot-escalated" && change.escalation?.action.kind === "add-group") {
        // The group was added to those who may answer: its members who can take it now hear of it.
        const { action, percent, step } = change.escalation;
        const source = change.questionId ? await findNoticeSource(tx, change.questionId) : undefined;
        for (const userId of await presentMembersOf(tx, action.groupId)) {
          notifications.push({
            userId,
            kind: "escalated",
            taskId: change.taskId,
            questionId: change.questionId ?? null,
            slotId: change.slotId ?? null,
            data: { group: action.group, escalationStep: step, percent, ...(source ? { headline: source.headline, askedBy: source.askedBy } : {}) },
          });
        }
      } else if (change.kind === "slot-reassigned" && change.slotId) {
        const slot = await findOpenSlotAssignee(tx, change.slotId);
        if (!slot) continue;
        notifications.push({ userId: slot.assigneeId, kind: "reassigned", taskId: slot.taskId, questionId: slot.questionId, slotId: change.slotId, data: { headline: slot.headline } });
      }
    }
    if (notifications.length > 0) await notifyInApp(tx, notifications, options.now?.() ?? new Date());
  };
}

/** A notification as the bell's list shows it. */
export interface NotificationView {
  id: string;
  kind: PersonNotificationKind;
  /** What happened, in a few words: "New question for you", "Reminder from Ada Admin"… */
  title: string;
  /** The question it is about, in the asker's words. */
  headline: string | null;
  /** Where opening it takes you. */
  href: string;
  createdAt: Date;
  unread: boolean;
  /** The question is no longer open (answered or closed). */
  settled: boolean;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value : undefined;
}

function titleOf(row: Pick<PersonNotificationRow, "kind" | "data">): string {
  switch (row.kind) {
    case "question":
      return "New question for you";
    case "reminder": {
      const by = text(row.data.remindedBy);
      if (by) return `Reminder from ${by}`;
      const percent = typeof row.data.percent === "number" ? row.data.percent : undefined;
      return percent === undefined ? "Reminder" : `Reminder: ${percent} % of the time to answer has passed`;
    }
    case "reassigned":
      return "Reassigned to you";
    case "escalated": {
      const group = text(row.data.group);
      return group ? `Escalated to your team ${group}` : "Escalated to your team";
    }
  }
}

/** Where a notification leads: its question's page, else its task's, else the inbox. */
export function notificationHref(row: { questionId: string | null; taskId: string | null }): string {
  return row.questionId ? `/questions/${row.questionId}` : row.taskId ? `/tasks/${row.taskId}` : "/inbox";
}

/** How many notifications the list shows. */
export const NOTIFICATIONS_LISTED = 50;

/** A person's notifications, newest first, and how many unread ones are about work still open (the bell's count). */
export async function loadNotifications(db: Db, userId: string): Promise<{ unread: UnreadCount; rows: NotificationView[] }> {
  const [unread, rows] = await Promise.all([countUnreadNotifications(db, userId), listNotificationsForUser(db, userId, NOTIFICATIONS_LISTED)]);
  return {
    unread,
    rows: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      title: titleOf(row),
      headline: row.headline ?? text(row.data.headline) ?? null,
      href: notificationHref(row),
      createdAt: row.createdAt,
      unread: row.readAt === null,
      settled: row.questionOpen === false,
    })),
  };
}

/** How many of a person's notifications are unread and still ask something of them — about an open question, or none (the bell's count). */
export function unreadNotificationCount(db: Db, userId: string): Promise<UnreadCount> {
  return countUnreadNotifications(db, userId);
}

/**
 * Opens one of `userId`'s notifications: marks it read and says where it leads; undefined when they
 * have no such notification (someone else's is no different from none).
 */
export async function openNotification(db: Db, userId: string, id: string, at: Date = new Date()): Promise<string | undefined> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const opened = await markNotificationRead(tx, userId, id, at);
    if (!opened) return undefined;
    await publishLiveEvents(tx, [{ kind: NOTIFICATIONS_CHANGED, audience: { userIds: [userId] } }]);
    return notificationHref(opened);
  });
}

/**
 * A person opened a question: their notifications about it are read now (the bell counts down, live).
 * Returns how many were unread. Opening a notification does the same for that one notification.
 */
export async function markQuestionSeen(db: Db, userId: string, questionId: string, at: Date = new Date()): Promise<number> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const count = await markQuestionNotificationsRead(tx, userId, questionId, at);
    if (count > 0) await publishLiveEvent(tx, { kind: NOTIFICATIONS_CHANGED, audience: { userIds: [userId] } });
    return count;
  });
}

/** Marks all of a person's notifications read; returns how many were unread. */
export async function markEveryNotificationRead(db: Db, userId: string, at: Date = new Date()): Promise<number> {
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const count = await markAllNotificationsRead(tx, userId, at);
    if (count > 0) await publishLiveEvent(tx, { kind: NOTIFICATIONS_CHANGED, audience: { userIds: [userId] } });
    return count;
  });
}
