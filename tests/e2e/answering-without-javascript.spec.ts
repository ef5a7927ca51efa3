import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("with JavaScript off, an empty answer comes back inline without using an attempt, and a good one is taken", async ({ browser }) => {
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
  // Sending nothing at all is a slip, not an attempt: the next one is still the first.
  await expect(page.getByText(/attempt 1 of 3/i)).toBeVisible();

  await question.answer.fill("Taxi from the airport to the client's office for the audit kickoff.");
  await question.send();
  await expect(page.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
  await context.close();
});

test("with JavaScript off, the form says before the last attempt that a refusal now closes the question", async ({ browser }) => {
  const title = uniqueTitle("Ferry");
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Tejo Ferries", amount: "90.00", incurredOn: "2026-11-18", assignee: people.assignee.name });
  await operator.context().close();

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(people.assignee.email);
  await page.getByLabel("Password").fill(people.assignee.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/inbox/);
  const question = new QuestionPage(page);
  await expect(async () => {
    await page.goto("/inbox?view=assigned");
    await expect(page.getByTestId("inbox-row").filter({ hasText: title })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await question.openFromInbox(title);
  const lastWarning = page.getByRole("note").filter({ hasText: "This is the last attempt: if this answer is refused too, the question closes without an answer." });
  // Each answer too long to keep is refused, and counts.
  await question.answer.fill("x".repeat(10_001));
  await question.send();
  await expect(page.getByText(/attempt 2 of 3/i)).toBeVisible();
  await expect(lastWarning).toHaveCount(0);
  await question.answer.fill("y".repeat(10_001));
  await question.send();
  await expect(page.getByText(/attempt 3 of 3/i)).toBeVisible();
  await expect(lastWarning).toBeVisible();
  // Still said on the question's page when it is opened again (a new visit: a reload would post the form again).
  await page.goto(page.url());
  await expect(lastWarning).toBeVisible();
  await context.close();
});
