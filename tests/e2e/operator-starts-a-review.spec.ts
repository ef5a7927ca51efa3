import { expect, people, signedInPage, test } from "./fixtures";
import { ReviewsPage, uniqueTitle } from "./pages/reviews-page";

test("an operator's new review appears in the list, waiting on the person chosen", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const reviews = new ReviewsPage(page);
  const title = uniqueTitle("Client lunch");
  await reviews.startReview({ title, merchant: "Casa Lisboa", amount: "212.40", incurredOn: "2026-11-18", assignee: people.otherAssignee.name });
  const row = page.getByTestId("review-row").filter({ hasText: title });
  await expect(row).toContainText("212.40 USD");
  await expect(row).toContainText(people.operator.name);
  // The Auditor runs in the background and parks on its question; the list follows it live.
  await expect(row).toContainText("waiting");
  await expect(row).toContainText(people.otherAssignee.name);
  await page.context().close();
});

test("a claim the form refuses keeps everything typed, with the reason beside each field", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const reviews = new ReviewsPage(page);
  await reviews.goto();
  await reviews.fill({ title: "Hotel", merchant: "", amount: "12,50", incurredOn: "2026-11-18", assignee: people.assignee.name });
  await page.getByRole("button", { name: "Start review" }).click();
  await expect(page.getByText("Write the amount as a number with up to two decimals, like 412.80.")).toBeVisible();
  await expect(page.getByText("Say who was paid.")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue("Hotel");
  await expect(page.getByLabel("Amount")).toHaveValue("12,50");
  await expect(page.getByLabel("Who answers the Auditor")).toHaveValue(/[0-9a-f-]{36}/);
  await page.context().close();
});
