import { expect, people, signedInPage, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";
import { QuestionPage } from "./pages/question-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("an operator cancels a run after confirming it, without JavaScript, the person asked sees the question withdrawn, live, and the claim can be reviewed again", async ({ browser }) => {
  test.setTimeout(90_000);
  const title = uniqueTitle("Cancelled taxi");
  const starter = await signedInPage(browser, people.operator);
  const runs = new RunsPage(starter);
  await runs.startReview({ title, merchant: "City Cabs", amount: "140.00", incurredOn: "2026-11-16", assignee: people.assignee.name });
  await starter.context().close();

  // The person asked has the Auditor's question open when the run is cancelled.
  const assignee = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(assignee);
  await question.openFromInbox(title);
  const questionPath = new URL(assignee.url()).pathname;

  const context = await browser.newContext({ javaScriptEnabled: false });
  const operator = await context.newPage();
  await new LoginPage(operator).signInAs(people.operator);
  const operatorRuns = new RunsPage(operator);
  await operatorRuns.goto();
  await operatorRuns.row(title).getByRole("link", { name: title }).click();
  await expect(operator.getByTestId("run-status")).toContainText("Waiting");

  // The step to confirm in opens without JavaScript; only its "Yes" cancels.
  await operator.getByText("Cancel this run…").click();
  await expect(operator.getByText("Cancelling stops the run for good")).toBeVisible();
  await operator.getByRole("button", { name: "Yes, cancel this run" }).click();
  await expect(operator.getByTestId("run-status")).toContainText("Cancelled");
  await expect(operator.getByTestId("run-cancelled")).toContainText(`${people.operator.name} cancelled this run`);
  await expect(operator.getByTestId("run-cancelled")).toContainText("its open question was withdrawn");
  await expect(operator.getByTestId("run-entry").filter({ hasText: "Cancelled by" })).toContainText(people.operator.name);
  await expect(operator.getByText("Cancel this run…")).toHaveCount(0);

  // Live, on the page the person had open: the form is gone and the question says why.
  await expect(assignee.getByTestId("closed-without-answer")).toHaveText("Withdrawn: the run was cancelled; this question was withdrawn.");
  await expect(assignee.getByRole("button", { name: /Send/ })).toHaveCount(0);
  await assignee.goto("/inbox?view=assigned");
  await expect(assignee.getByTestId("inbox-row").filter({ hasText: title })).toHaveCount(0);
  await assignee.goto(questionPath);
  await expect(assignee.getByTestId("closed-without-answer")).toBeVisible();
  await assignee.context().close();

  // The cancelled claim can be reviewed again from its run page, after the same kind of step to confirm.
  await operator.getByTestId("run-again").locator("summary", { hasText: "Review again" }).click();
  await operator.getByRole("button", { name: `Yes, review again: Claim: ${title}` }).click();
  await expect(operator.getByTestId("run-again").getByRole("status")).toContainText("Started");

  await operatorRuns.goto("?state=cancelled");
  await expect(operatorRuns.row(title)).toContainText("Cancelled");
  await context.close();
});
