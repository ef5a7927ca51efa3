import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("markup in what an agent wrote is shown as text and never runs", async ({ browser }) => {
  const merchant = `<img src=x onerror="window.__planted='img'">`;
  const title = `${uniqueTitle("Dinner")} <script>window.__planted='script'</script>`;
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant, amount: "150.00", incurredOn: "2026-11-15", assignee: people.assignee.name });
  await operator.context().close();

  const page = await signedInPage(browser, people.assignee);
  await page.goto("/inbox?view=assigned");
  const row = page.getByTestId("inbox-row").filter({ hasText: title });
  await expect(row).toContainText(`charge at ${merchant} on`);
  await new QuestionPage(page).openFromInbox(title);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(merchant);
  await expect(page.getByRole("complementary", { name: "Context" })).toContainText(title);
  expect(await page.evaluate(() => (window as unknown as { __planted?: string }).__planted)).toBeUndefined();
  expect(await page.locator("img[src=x]").count()).toBe(0);
  await page.context().close();
});
