import type { Page } from "@playwright/test";
import { people } from "../fixtures";
import { QuestionPage } from "../pages/question-page";
import { RunsPage, uniqueTitle } from "../pages/runs-page";

/** The pages of fresh reviews, to look at: a question still open, one answered, and a run. */
export interface ReviewsToLookAt {
  openQuestion: string;
  answeredQuestion: string;
  run: string;
}

/**
 * An operator starts two reviews the Auditor asks the assignee about; the assignee answers the first.
 * `operator` and `assignee` are pages signed in as those people.
 */
export async function reviewsToLookAt(operator: Page, assignee: Page): Promise<ReviewsToLookAt> {
  const runs = new RunsPage(operator);
  const answeredTitle = uniqueTitle("Looked at, answered");
  const openTitle = uniqueTitle("Looked at, open");
  for (const title of [answeredTitle, openTitle]) {
    await runs.startReview({ title, merchant: "A merchant with a rather long name, Lda.", amount: "1250.00", incurredOn: "2026-11-02", assignee: people.assignee.name });
  }
  const question = new QuestionPage(assignee);
  await question.openFromInbox(answeredTitle);
  const answeredQuestion = new URL(assignee.url()).pathname;
  await question.answer.fill("Dinner with the client's team after the workshop, as agreed with them.");
  await question.send();
  // Taken: the Auditor approves and the run asks Sam again (the reimbursement questions), and his page follows it there.
  await assignee.waitForURL((url) => url.pathname.startsWith("/questions/") && url.pathname !== answeredQuestion);
  await question.openFromInbox(openTitle);
  const openQuestion = new URL(assignee.url()).pathname;
  await runs.goto();
  const run = (await runs.row(openTitle).getByRole("link", { name: openTitle }).getAttribute("href"))!;
  return { openQuestion, answeredQuestion, run };
}
