import type { Metadata } from "next";
import { MarkAllReadForm } from "@/components/mark-all-read-form";
import { OpenNotificationForm } from "@/components/open-notification-form";
import { When } from "@/components/when";
import { getDb } from "@/lib/database";
import { loadNotifications, type NotificationView } from "@/lib/person-notifications";
import { requirePageUser } from "@/lib/server/session";
import { markAllNotificationsReadAction, openNotificationAction } from "./actions";

export const metadata: Metadata = { title: "Notifications" };

function NotificationItem({ row, now }: { row: NotificationView; now: Date }) {
  // About a question no longer open, it asks nothing more: shown as read, whatever it was.
  const unread = row.unread && !row.settled;
  return (
    <li className={unread ? "notification unread" : "notification"} data-testid="notification">
      <OpenNotificationForm notificationId={row.id} title={row.title} headline={row.headline} unread={unread} action={openNotificationAction} />
      <span className="muted notification-meta">
        <When at={row.createdAt} now={now} />
        {row.settled ? " · no longer open" : ""}
      </span>
    </li>
  );
}

export default async function NotificationsPage() {
  const user = await requirePageUser();
  const { unread, rows } = await loadNotifications(await getDb(), user.id);
  const now = new Date();
  // Those about questions no longer open (answered, by anyone, or ended) fold away below the rest.
  const current = rows.filter((row) => !row.settled);
  const settled = rows.filter((row) => row.settled);
  return (
    <section>
      <div className="page-heading">
        <h1>Notifications</h1>
        {unread.count > 0 ? <MarkAllReadForm action={markAllNotificationsReadAction} /> : null}
      </div>
      <p className="muted">{unread.count === 0 ? "Nothing unread." : unread.atLeast ? `More than ${unread.count} unread.` : `${unread.count} unread.`} Opening one, or its question, marks it read.</p>
      {rows.length === 0 ? (
        <div className="empty-state">
          <h2>Nothing here</h2>
          <p>When a question is put to you, reassigned to you or escalated to your team, or someone reminds you of one, it is listed here.</p>
        </div>
      ) : (
        <>
          {current.length > 0 ? (
            <ul className="notification-list" aria-label="Notifications">
              {current.map((row) => (
                <NotificationItem key={row.id} row={row} now={now} />
              ))}
            </ul>
          ) : (
            <p className="muted">Nothing about a question still open.</p>
          )}
          {settled.length > 0 ? (
            <details className="notifications-settled" data-testid="notifications-settled">
              <summary>
                {settled.length} about {settled.length === 1 ? "a question" : "questions"} no longer open
              </summary>
              <ul className="notification-list" aria-label="About questions no longer open">
                {settled.map((row) => (
                  <NotificationItem key={row.id} row={row} now={now} />
                ))}
              </ul>
            </details>
          ) : null}
        </>
      )}
    </section>
  );
}
