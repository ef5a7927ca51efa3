import type { Metadata } from "next";
import { MarkAllReadForm } from "@/components/mark-all-read-form";
import { OpenNotificationForm } from "@/components/open-notification-form";
import { When } from "@/components/when";
import { getDb } from "@/lib/database";
import { loadNotifications } from "@/lib/person-notifications";
import { requirePageUser } from "@/lib/server/session";
import { markAllNotificationsReadAction, openNotificationAction } from "./actions";

export const metadata: Metadata = { title: "Notifications" };

export default async function NotificationsPage() {
  const user = await requirePageUser();
  const { unread, rows } = await loadNotifications(await getDb(), user.id);
  const now = new Date();
  return (
    <section>
      <div className="page-heading">
        <h1>Notifications</h1>
        {unread > 0 ? <MarkAllReadForm action={markAllNotificationsReadAction} /> : null}
      </div>
      <p className="muted">{unread === 0 ? "Nothing unread." : `${unread} unread.`} Opening one marks it read and takes you to its question.</p>
      {rows.length === 0 ? (
        <div className="empty-state">
          <h2>Nothing here</h2>
          <p>When a question is put to you, reassigned to you or escalated to your team, or someone reminds you of one, it is listed here.</p>
        </div>
      ) : (
        <ul className="notification-list" aria-label="Notifications">
          {rows.map((row) => (
            <li key={row.id} className={row.unread ? "notification unread" : "notification"} data-testid="notification">
              <OpenNotificationForm notificationId={row.id} title={row.title} headline={row.headline} unread={row.unread} action={openNotificationAction} />
              <span className="muted notification-meta">
                <When at={row.createdAt} now={now} />
                {row.settled ? " · no longer open" : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
