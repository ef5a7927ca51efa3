import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("the inbox finds a question by its words, says how many wait in the tab's title, and j then Enter opens it", async ({ browser }) => {
  const title = uniqueTitle("Harbour cruise");
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Harbour Cruises", amount: "75.00", incurredOn: "2026-11-14", assignee: people.assignee.name });
  await operator.context().close();

  const page = await signedInPage(browser, people.assignee);
  await page.goto("/inbox?view=assigned");
  await expect(page.getByTestId("inbox-row").filter({ hasText: title })).toBeVisible();
  await expect(page).toHaveTitle(/^Inbox \(\d+\) · Parley$/);

  const search = page.getByRole("search", { name: "Find a question" });
  await search.getByLabel("Words in the question").fill("harbour cruises");
  await search.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("inbox-row")).toHaveCount(1);
  await expect(page.getByTestId("inbox-row")).toContainText(title);
  await expect(search.getByRole("status")).toContainText("1 of");

  await page.locator("body").press("j");
  await expect(page.getByTestId("inbox-row").getByRole("link")).toBeFocused();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/questions\//);
  await page.context().close();
});
