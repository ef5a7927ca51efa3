import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { listAssignees, listReviews } from "@/db/queries/reviews";
import { formatAmount } from "@/lib/example/claim-brief";
import { formatDuration } from "@/lib/sla-clock";
import { requirePageUser } from "@/lib/server/session";
import { startReviewAction } from "./actions";
import { StartReviewForm } from "./start-review-form";

export const metadata: Metadata = { title: "Reviews" };

export default async function ReviewsPage() {
  await requirePageUser(["operator"]);
  const db = await getDb();
  const [reviews, assignees] = await Promise.all([listReviews(db), listAssignees(db)]);
  const now = new Date();
  return (
    <section>
      <h1>Reviews</h1>
      <details className="card-plain" open={reviews.length === 0}>
        <summary>
          <strong>Start a review</strong>
        </summary>
        <StartReviewForm assignees={assignees} today={now.toISOString().slice(0, 10)} action={startReviewAction} />
      </details>
      {reviews.length === 0 ? (
        <div className="empty-state">
          <h2>No reviews yet</h2>
          <p>Reviews you start, and the runs behind them, appear here with their state and who they are waiting on.</p>
        </div>
      ) : (
        <table className="table" aria-label="Reviews">
          <thead>
            <tr>
              <th>Claim</th>
              <th>Amount</th>
              <th>State</th>
              <th>Waiting on</th>
              <th>Started by</th>
              <th>Age</th>
            </tr>
          </thead>
          <tbody>
            {reviews.map((review) => (
              <tr key={review.taskId} data-testid="review-row">
                <td>
                  {review.claimTitle}
                  <div className="muted">{review.merchant}</div>
                </td>
                <td>{formatAmount(review.amountCents, review.currency)}</td>
                <td>
                  <span className={`badge status-${review.status ?? "none"}`}>{review.status ?? "not started"}</span>
                  {review.decision ? <div className="muted">{review.decision}</div> : null}
                </td>
                <td>{review.waitingOn ?? <span className="muted">—</span>}</td>
                <td>{review.startedBy ?? <span className="muted">—</span>}</td>
                <td>{formatDuration(now.getTime() - review.startedAt.getTime())}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
