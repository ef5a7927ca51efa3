import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("with JavaScript off, a refused answer comes back inline and a good one is taken", async ({ browser }) => {
  const title = uniqueTitle("Taxi");
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "City Cabs", amount: "140.00", incurredOn: "2026-11-16", assignee: people.assignee.name });
  await operator.context().close();

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(people.assignee.email);
  await page.getByLabel("Password").fill(people.assignee.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/inbox/);

  const question = new QuestionPage(page);
  // Without JavaScript the run is not followed live: reload until the Auditor's question is there.
  await expect(async () => {
    await page.goto("/inbox?view=assigned");
    await expect(page.getByTestId("inbox-row").filter({ hasText: title })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await question.openFromInbox(title);
  await question.send();
  await expect(page.getByText("This question needs an answer.")).toBeVisible();
  await expect(page.getByText(/attempt 2 of 3/i)).toBeVisible();

  await question.answer.fill("Taxi from the airport to the client's office for the audit kickoff.");
  await question.send();
  await expect(page.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
  await context.close();
});
