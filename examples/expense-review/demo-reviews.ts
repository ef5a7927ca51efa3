import { sql } from "drizzle-orm";
import type { Db, DemoContext, Runtime } from "parley/workflows";
import { reviewTasks } from "./schema";
import { startReview } from "./start-review";

/** Claims the demo starts reviews of, so the first look at Parley has questions waiting in it. */
const DEMO_CLAIMS = [
  {
    assignee: "sam@parley.test",
    claim: { title: "Team dinner after the launch", amountCents: 41_280, currency: "USD", merchant: "Luigi's Trattoria", incurredOn: "2026-11-20", description: "Dinner" },
  },
  {
    assignee: "priya@parley.test",
    claim: { title: "Airport taxi", amountCents: 8_600, currency: "USD", merchant: "Metro Cabs", incurredOn: "2026-11-24", description: "" },
  },
  {
    assignee: "sam@parley.test",
    claim: { title: "Conference ticket", amountCents: 125_000, currency: "USD", merchant: "DevConf Berlin", incurredOn: "2026-11-02", description: "Ticket" },
  },
] as const;

/**
 * On a demo database with no reviews yet (the first start), starts a review of each demo claim; the
 * worker then runs the Auditor, whose questions land in Sam's and Priya's inboxes. `people` are the
 * demo people by email, as Parley hands them to `seedDemo`. Returns how many.
 */
export async function startDemoReviewsOnFirstStart(db: Db, runtime: Runtime, people: DemoContext["people"]): Promise<number> {
  const [existing] = await db.select({ count: sql<number>`count(*)::int` }).from(reviewTasks);
  if ((existing?.count ?? 0) > 0) return 0;
  const operator = people.get("omar@parley.test");
  let started = 0;
  for (const demo of DEMO_CLAIMS) {
    const assignee = people.get(demo.assignee);
    await startReview(db, runtime, { claim: { ...demo.claim }, assigneeId: assignee?.id ?? null, createdBy: operator?.id ?? null });
    started += 1;
  }
  return started;
}
