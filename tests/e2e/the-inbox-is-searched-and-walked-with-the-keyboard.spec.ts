import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("the inbox finds a question by its words in every view, says which view it is in, and / then j then Enter reach it", async ({ browser }) => {
  const title = uniqueTitle("Harbour cruise");
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Harbour Cruises", amount: "75.00", incurredOn: "2026-11-14", assignee: people.assignee.name });
  await operator.context().close();

  const page = await signedInPage(browser, people.assignee);
  await page.goto("/inbox?view=assigned");
  await expect(page.getByTestId("inbox-row").filter({ hasText: title })).toBeVisible();
  await expect(page).toHaveTitle(/^Inbox \(\d+\) · Parley$/);

  // Typed on another view: the words are looked for in every one, and the question says where it is.
  await page.goto("/inbox?view=team");
  const search = page.getByRole("search", { name: "Find a question" });
  await page.locator("body").press("/");
  await expect(search.getByLabel("Words, in any view")).toBeFocused();
  await page.keyboard.type("harbour cruises");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("inbox-row")).toHaveCount(1);
  await expect(page.getByTestId("inbox-row")).toContainText(title);
  await expect(page.getByTestId("found-in-view")).toHaveText("Assigned to me");
  await expect(search.getByRole("status")).toContainText("1 open question and 0 answered found, in every view");

  await page.locator("body").press("j");
  await expect(page.getByTestId("inbox-row").getByRole("link")).toBeFocused();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/questions\//);
  await page.context().close();
});
