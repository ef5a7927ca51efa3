import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db/client";
import { countReviewsByState, listAssignees, listReviews, REVIEW_STATES, type ReviewState } from "@/db/queries/reviews";
import { formatAmount } from "@/lib/example/claim-brief";
import { formatDuration } from "@/lib/sla-clock";
import { requirePageUser } from "@/lib/server/session";
import { reviewAgainAction, startReviewAction } from "./actions";
import { ReviewAgainForm } from "./review-again-form";
import { StartReviewForm } from "./start-review-form";

export const metadata: Metadata = { title: "Reviews" };

const STATE_LABELS: Record<ReviewState, string> = {
  running: "Running",
  waiting: "Waiting",
  completed: "Completed",
  failed: "Failed",
  nothing: "Nothing, with reason",
};

/** A review whose run has ended may be started again for the same claim. */
const ENDED: ReadonlySet<string> = new Set(["completed", "failed", "nothing"]);

function stateFrom(value: string | string[] | undefined): ReviewState | undefined {
  return REVIEW_STATES.find((state) => state === value);
}

export default async function ReviewsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requirePageUser(["operator"]);
  const state = stateFrom((await searchParams).state);
  const db = await getDb();
  const [reviews, counts, assignees] = await Promise.all([listReviews(db, { state }), countReviewsByState(db), listAssignees(db)]);
  const total = REVIEW_STATES.reduce((sum, each) => sum + counts[each], 0);
  const now = new Date();
  return (
    <section>
      <h1>Reviews</h1>
      {/* Always open: a collapsible that closed once the first review existed hid its own "started" message. */}
      <section className="card-plain" aria-labelledby="start-review-heading">
        <h2 id="start-review-heading">Start a review</h2>
        <StartReviewForm assignees={assignees} today={now.toISOString().slice(0, 10)} action={startReviewAction} />
      </section>
      <nav className="tabs" aria-label="Filter by state">
        <Link href="/reviews" aria-current={state ? undefined : "page"}>
          All <span className="count">{total}</span>
        </Link>
        {REVIEW_STATES.map((each) => (
          <Link key={each} href={`/reviews?state=${each}`} aria-current={state === each ? "page" : undefined} data-testid={`filter-${each}`}>
            {STATE_LABELS[each]} <span className="count">{counts[each]}</span>
          </Link>
        ))}
      </nav>
      {reviews.length === 0 ? (
        <div className="empty-state">
          <h2>{state ? `No reviews are ${STATE_LABELS[state].toLowerCase()}` : "No reviews yet"}</h2>
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
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {reviews.map((review) => (
              <tr key={review.taskId} data-testid="review-row">
                <td>
                  <Link href={`/tasks/${review.taskId}`}>{review.claimTitle}</Link>
                  <div className="muted">{review.merchant}</div>
                </td>
                <td>{formatAmount(review.amountCents, review.currency)}</td>
                <td>
                  <span className={`badge status-${review.reviewState === "nothing" ? "nothing" : (review.status ?? "none")}`}>{review.reviewState === "nothing" ? "nothing" : (review.status ?? "not started")}</span>
                  {review.reviewState === "nothing" && review.nothingReason ? <div className="muted">reason: {review.nothingReason}</div> : null}
                  {review.decision ? <div className="muted">{review.decision}</div> : null}
                </td>
                <td>{review.waitingOn ?? <span className="muted">—</span>}</td>
                <td>{review.startedBy ?? <span className="muted">—</span>}</td>
                <td>{formatDuration(now.getTime() - review.startedAt.getTime())}</td>
                <td>{review.reviewState && ENDED.has(review.reviewState) ? <ReviewAgainForm claimId={review.claimId} claimTitle={review.claimTitle} action={reviewAgainAction} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
