import type { Metadata } from "next";
import { requirePageUser } from "@/lib/server/session";

export const metadata: Metadata = { title: "Reviews" };

export default async function ReviewsPage() {
  await requirePageUser(["operator"]);
  return (
    <section>
      <h1>Reviews</h1>
      <div className="empty-state">
        <h2>No reviews yet</h2>
        <p>Reviews you start, and the runs behind them, appear here with their state and who they are waiting on.</p>
      </div>
    </section>
  );
}
