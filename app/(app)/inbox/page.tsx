import type { Metadata } from "next";
import { requirePageUser } from "@/lib/server/session";

export const metadata: Metadata = { title: "Inbox" };

export default async function InboxPage() {
  const user = await requirePageUser(["assignee"]);
  return (
    <section>
      <h1>Inbox</h1>
      {user.away ? (
        <p className="notice" role="status">
          You are marked away: flows will not put new questions to you until you switch it off.
        </p>
      ) : null}
      <div className="empty-state">
        <h2>Nothing is waiting on you</h2>
        <p>When an agent or a flow needs something only you can settle, its question appears here with its deadline.</p>
      </div>
    </section>
  );
}
