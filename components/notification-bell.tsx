import Link from "next/link";
import { unreadWords, type UnreadCount } from "@/lib/person-notifications";

/**
 * The bell in the top bar: a link to the person's notifications with how many are unread. A plain
 * link, so it works without JavaScript; the count stays current because the layout is re-rendered
 * when a live event for the person arrives.
 */
export function NotificationBell({ unread }: { unread: UnreadCount }) {
  const label = unread.count === 0 ? "Notifications, none unread" : `Notifications, ${unreadWords(unread)} unread`;
  return (
    <Link href="/notifications" className={unread.count > 0 ? "bell unread" : "bell"} aria-label={label} title={label} data-testid="notification-bell">
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path
          d="M12 2a6 6 0 0 0-6 6v3.6l-1.7 3.4A1 1 0 0 0 5.2 16.5h13.6a1 1 0 0 0 .9-1.5L18 11.6V8a6 6 0 0 0-6-6Zm0 20a3 3 0 0 0 2.8-2h-5.6A3 3 0 0 0 12 22Z"
          fill="currentColor"
        />
      </svg>
      {unread.count > 0 ? (
        <span className="bell-count" data-testid="notification-count">
          {unread.atLeast ? `${unread.count}+` : unread.count}
        </span>
      ) : null}
    </Link>
  );
}
