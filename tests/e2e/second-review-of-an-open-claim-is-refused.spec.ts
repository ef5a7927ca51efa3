import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("a claim's review can be started again once it has ended, and is refused while that one is open", async ({ browser }) => {
  test.setTimeout(60_000);
  const operator = await signedInPage(browser, people.operator);
  const reviews = new RunsPage(operator);
  const title = uniqueTitle("Airport taxi");
  // Small and explained: the Auditor approves at once and the filer is asked how to be paid back.
  await reviews.startReview({
    title,
    merchant: "Lisbon Taxis",
    amount: "34.00",
    incurredOn: "2026-11-04",
    assignee: people.assignee.name,
    description: "Taxi from the airport to the Acme office for the renewal meeting.",
  });
  const assignee = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(assignee);
  await question.openFromInbox(title);
  await assignee.getByRole("radio", { name: /Payroll/ }).check();
  await assignee.getByRole("group", { name: "Is it urgent?" }).getByLabel("No").check();
  await assignee.getByLabel("Who attended?").fill("Sam");
  await question.send();
  await expect(assignee.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
  await assignee.context().close();

  // The start landed on the run's page: the list follows the review live from here.
  await reviews.goto();
  const ended = operator.getByTestId("run-row").filter({ hasText: title });
  await expect(ended).toContainText("Completed");
  // Review again asks for confirmation first: the step opens, and its "Yes" starts it.
  await ended.locator("summary", { hasText: "Review again" }).click();
  const again = ended.getByRole("button", { name: `Yes, review again: Claim: ${title}` });
  await again.click();
  await expect(ended.getByRole("status")).toContainText("Started");
  await expect(operator.getByTestId("run-row").filter({ hasText: title })).toHaveCount(2);

  // The first review has ended, but the one just started is open: a third is refused, and says why.
  await again.click();
  await expect(ended.getByRole("alert")).toHaveText(/This claim already has a review open: it is (running|waiting for an answer)\. Wait for it to finish before starting another\./);
  await expect(operator.getByTestId("run-row").filter({ hasText: title })).toHaveCount(2);
  await operator.context().close();
});
