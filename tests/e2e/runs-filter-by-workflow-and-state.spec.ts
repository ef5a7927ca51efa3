import { expect, people, signedInPage, test } from "./fixtures";
import type { Page } from "@playwright/test";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

/** The list shows every run its tab counts: all of them, or (other tests leave runs too) the first page, saying of how many. */
async function expectListedAsCounted(page: Page, runs: RunsPage, counted: number) {
  const shown = await runs.rows.count();
  if (shown === counted) return;
  expect(shown).toBeLessThan(counted);
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText(`The ${shown} newest of ${counted}`);
}

test("the runs list filters by state, each filter counting the runs it shows", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const runs = new RunsPage(page);
  const title = uniqueTitle("Conference hotel");
  await runs.startReview({ title, merchant: "Hotel Alfama", amount: "640.00", incurredOn: "2026-11-12", assignee: people.assignee.name });
  await runs.goto();
  await expect(runs.row(title)).toContainText("Waiting");

  await page.getByTestId("filter-waiting").click();
  await page.waitForURL(/\?state=waiting$/);
  await expect(page.getByTestId("filter-waiting")).toHaveAttribute("aria-current", "page");
  await expect(runs.row(title)).toBeVisible();
  const waitingCount = Number(await page.getByTestId("filter-waiting").locator(".count").textContent());
  await expectListedAsCounted(page, runs, waitingCount);
  // Each row says its state in the tab's own words.
  const tabWords = (await page.getByTestId("filter-waiting").textContent())?.replace(/\d+\s*$/, "").trim();
  expect(tabWords).toBe("Waiting");
  for (const badge of await runs.rows.locator(".badge").allTextContents()) expect(badge).toBe(tabWords);

  await page.getByTestId("filter-completed").click();
  await page.waitForURL(/\?state=completed$/);
  await expect(runs.row(title)).toHaveCount(0);
  const completedCount = Number(await page.getByTestId("filter-completed").locator(".count").textContent());
  await expectListedAsCounted(page, runs, completedCount);

  await page.goto("/runs?state=nonsense");
  await expect(page.getByRole("navigation", { name: "Filter by state" }).getByRole("link", { name: /^All/ })).toHaveAttribute("aria-current", "page");
  await expect(runs.row(title)).toBeVisible();
  await page.context().close();
});

test("the runs list filters by workflow, keeping the state filter", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const runs = new RunsPage(page);
  const title = uniqueTitle("Team offsite");
  await runs.startReview({ title, merchant: "Quinta da Serra", amount: "410.00", incurredOn: "2026-11-20", assignee: people.assignee.name });
  await runs.goto("?state=waiting");
  await page.getByRole("navigation", { name: "Filter by workflow" }).getByRole("link", { name: "Deployment approval" }).click();
  await page.waitForURL(/workflow=DeployApproval/);
  expect(new URL(page.url()).searchParams.get("state")).toBe("waiting");
  await expect(runs.row(title)).toHaveCount(0);
  for (const cell of await runs.rows.locator("td:nth-child(2)").allTextContents()) expect(cell).toBe("Deployment approval");

  await page.getByRole("navigation", { name: "Filter by workflow" }).getByRole("link", { name: "Expense review" }).click();
  await page.waitForURL(/workflow=ReviewClaim/);
  await expect(runs.row(title)).toBeVisible();
  await page.context().close();
});

test("an old link to the reviews list lands on the runs list with its filter", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  await page.goto("/reviews?state=waiting");
  await expect(page).toHaveURL(/\/runs\?state=waiting$/);
  await expect(page.getByTestId("filter-waiting")).toHaveAttribute("aria-current", "page");
  await page.context().close();
});
