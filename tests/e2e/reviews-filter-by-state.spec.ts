import { expect, people, signedInPage, test } from "./fixtures";
import { ReviewsPage, uniqueTitle } from "./pages/reviews-page";

test("the reviews list filters by state, each filter counting the reviews it shows", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const reviews = new ReviewsPage(page);
  const title = uniqueTitle("Conference hotel");
  await reviews.startReview({ title, merchant: "Hotel Alfama", amount: "640.00", incurredOn: "2026-11-12", assignee: people.assignee.name });
  await expect(page.getByTestId("review-row").filter({ hasText: title })).toContainText("waiting");

  await page.getByTestId("filter-waiting").click();
  await page.waitForURL(/\?state=waiting$/);
  await expect(page.getByTestId("filter-waiting")).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("review-row").filter({ hasText: title })).toBeVisible();
  const waitingCount = Number(await page.getByTestId("filter-waiting").locator(".count").textContent());
  await expect(page.getByTestId("review-row")).toHaveCount(waitingCount);
  for (const badge of await page.getByTestId("review-row").locator(".badge").allTextContents()) expect(badge).toBe("waiting");

  await page.getByTestId("filter-completed").click();
  await page.waitForURL(/\?state=completed$/);
  await expect(page.getByTestId("review-row").filter({ hasText: title })).toHaveCount(0);
  const completedCount = Number(await page.getByTestId("filter-completed").locator(".count").textContent());
  await expect(page.getByTestId("review-row")).toHaveCount(completedCount);

  await page.goto("/reviews?state=nonsense");
  await expect(page.getByRole("link", { name: /^All/ })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("review-row").filter({ hasText: title })).toBeVisible();
  await page.context().close();
});
