import type { Metadata } from "next";
import Link from "next/link";
import { When } from "@/components/when";
import { getDb } from "@/lib/database";
import { loadFailedDeliveries } from "@/lib/notifications/failed-deliveries";
import { requirePageUser } from "@/lib/server/session";

export const metadata: Metadata = { title: "Failed deliveries" };

export default async function FailedDeliveriesPage() {
  await requirePageUser(["admin"]);
  const failed = await loadFailedDeliveries(await getDb());
  const now = new Date();
  return (
    <section>
      <p className="muted">
        <Link href="/admin">Admin</Link> / Failed deliveries
      </p>
      <h1>Failed deliveries</h1>
      <p className="muted">
        Emails and webhooks about questions that did not get through, newest first, with what the other side answered. A delivery that may yet succeed is
        tried again later; one refused for good, or out of tries, is given up. Each is also logged by the server that tried it.
      </p>
      {failed.length === 0 ? (
        <div className="empty-state">
          <h2>No failed deliveries</h2>
          <p>Every email and webhook so far was delivered, or is still on its way.</p>
        </div>
      ) : (
        <table className="table stacks failed-deliveries" aria-label="Failed deliveries">
          <thead>
            <tr>
              <th>Question</th>
              <th>Through</th>
              <th>To</th>
              <th>Why</th>
              <th>When</th>
              <th>Tries</th>
            </tr>
          </thead>
          <tbody>
            {failed.map((delivery) => (
              <tr key={delivery.id} data-testid="failed-delivery">
                <td>
                  <Link href={`/questions/${delivery.questionId}`}>{delivery.question ?? "A question no longer on record"}</Link>
                  <div className="muted small">
                    {delivery.what}
                    {delivery.taskId ? (
                      <>
                        {" · "}
                        <Link href={`/tasks/${delivery.taskId}`}>run</Link>
                      </>
                    ) : null}
                  </div>
                </td>
                <td data-label="Through">{delivery.notifier}</td>
                <td data-label="To">{delivery.recipients.length > 0 ? delivery.recipients.join(", ") : <span className="muted">its receiver</span>}</td>
                <td data-label="Why" className="delivery-reason">
                  {delivery.reason}
                </td>
                <td data-label="When">
                  <span className={`badge ${delivery.state === "given-up" ? "status-failed" : "status-waiting"}`}>{delivery.state === "given-up" ? "given up" : "will retry"}</span>{" "}
                  <When at={delivery.at} now={now} />
                </td>
                <td data-label="Tries">{delivery.deliveries}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
