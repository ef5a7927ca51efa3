import { defineApp, defineStart } from "parley/workflows";
import { createAuditorModel } from "./auditor-script";
import { claimInput } from "./claim-input";
import { startDemoReviewsOnFirstStart } from "./demo-reviews";
import { ReviewClaim } from "./review-claim";
import { startReview } from "./start-review";
import { startReviewOfClaim } from "./start-review-of-claim";
import { claimContext, describeReviews } from "./task-subjects";

/**
 * The expense review, registered like any adopter's app: the Auditor reviews a claim and asks its
 * filer what the record cannot explain; an approved claim asks the filer how to be paid back. Its
 * tables (claims, review_tasks, review_questions) and migrations are its own.
 */
export const expenseReview = defineApp({
  name: "expense-review",
  migrations: "examples/expense-review/migrations",
  workflows: [
    {
      workflow: ReviewClaim,
      label: "Expense review",
      description: "The Auditor reviews an expense claim, asks the filer about what the record can't explain, and asks how to pay back an approved claim.",
      describe: describeReviews,
      context: claimContext,
      start: defineStart({
        input: claimInput,
        submitLabel: "Start review",
        async run({ db, runtime, by }, claim) {
          const task = await startReview(db, runtime, {
            claim: { title: claim.title, amountCents: claim.amount, currency: claim.currency, merchant: claim.merchant, incurredOn: claim.incurredOn, description: claim.description ?? "" },
            assigneeId: claim.assigneeId,
            createdBy: by,
          });
          return { taskId: task.id };
        },
      }),
      again: {
        label: "Review again",
        async run({ db, runtime, by }, taskId) {
          const { task } = await startReviewOfClaim(db, runtime, { reviewTaskId: taskId, createdBy: by });
          return { taskId: task.id };
        },
      },
      scripted: { Auditor: createAuditorModel },
    },
  ],
  async seedDemo({ db, runtime, people }) {
    const started = await startDemoReviewsOnFirstStart(db, runtime, people);
    return started > 0 ? `started ${started} demo expense reviews; their questions will be in the inboxes shortly.` : undefined;
  },
});
