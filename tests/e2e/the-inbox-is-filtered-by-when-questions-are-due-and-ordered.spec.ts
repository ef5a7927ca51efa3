import { expect, people, signedInPage, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("without JavaScript, the inbox keeps the questions due within a week, newest or oldest first, and says so of a filter it does not know", async ({ browser }) => {
  test.setTimeout(90_000);
  const tag = uniqueTitle("Ordered").replace(/\s+/g, "");
  const operator = await signedInPage(browser, people.operator);
  const runs = new RunsPage(operator);
  for (const merchant of [`${tag} Alpha`, `${tag} Beta`]) {
    await runs.startReview({ title: uniqueTitle("Sorted taxi"), merchant, amount: "75.00", incurredOn: "2026-11-14", assignee: people.assignee.name });
  }
  await operator.context().close();

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await new LoginPage(page).signInAs(people.assignee);
  const rows = page.getByTestId("inbox-row");
  // Without JavaScript the runs are not followed live: reload until both of the Auditor's questions are there.
  await expect(async () => {
    await page.goto(`/inbox?view=assigned&q=${encodeURIComponent(tag)}`);
    await expect(rows).toHaveCount(2, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });

  const search = page.getByRole("search", { name: "Find a question" });
  // Each select's label holds its chosen option too ("Order Soonest due first"): found by field name.
  const due = search.locator("select[name=due]");
  const order = search.locator("select[name=sort]");
  await due.selectOption({ label: "Due within a week" });
  await order.selectOption({ label: "Newest first" });
  await search.getByRole("button", { name: "Find" }).click();
  await expect(page).toHaveURL(/due=week/);
  await expect(page).toHaveURL(/sort=newest/);
  await expect(rows.nth(0)).toContainText(`${tag} Beta`);
  await expect(rows.nth(1)).toContainText(`${tag} Alpha`);
  // Words are looked for in every view: the status says so.
  await expect(search.getByRole("status").filter({ hasText: "found" })).toContainText("2 open questions and 0 answered found, in every view");
  // The form says what is shown.
  await expect(due).toHaveValue("week");
  await expect(order).toHaveValue("newest");

  await order.selectOption({ label: "Oldest first" });
  await search.getByRole("button", { name: "Find" }).click();
  await expect(rows.nth(0)).toContainText(`${tag} Alpha`);
  await expect(rows.nth(1)).toContainText(`${tag} Beta`);

  await due.selectOption({ label: "No deadline" });
  await search.getByRole("button", { name: "Find" }).click();
  await expect(rows).toHaveCount(0);
  await expect(page.getByText("Nothing you may answer or have answered matches what you looked for.")).toBeVisible();

  // A hand-made address: what it does not know is ignored, and said so.
  const response = await page.goto(`/inbox?view=assigned&q=${encodeURIComponent(tag)}&due=soonish&sort=sideways`);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("not-understood")).toHaveText(
    "The due filter “soonish” is not one we know, so the list shows every deadline. The order “sideways” is not one we know, so the list shows the soonest due first.",
  );
  await expect(rows).toHaveCount(2);
  await context.close();
});
