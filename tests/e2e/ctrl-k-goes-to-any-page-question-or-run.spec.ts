import type { Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

/** Opens the palette with Ctrl-K and types `words` into it; returns the palette. */
async function paletteWith(page: Page, words: string) {
  await page.locator("body").press("Control+k");
  const palette = page.getByRole("dialog", { name: "Go to a page, question or run" });
  await expect(palette.getByRole("combobox")).toBeFocused();
  await page.keyboard.type(words);
  return palette;
}

test("Ctrl-K finds an open question by its words and Enter opens it", async ({ browser }) => {
  const title = uniqueTitle("Lighthouse tour");
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Lighthouse Tours", amount: "42.00", incurredOn: "2026-11-15", assignee: people.assignee.name });
  await operator.context().close();

  const page = await signedInPage(browser, people.assignee);
  await page.goto("/inbox");
  await expect(page.getByTestId("inbox-row").filter({ hasText: "Lighthouse Tours" })).toBeVisible();
  await page.goto("/profile");
  const palette = await paletteWith(page, "lighthouse tours");
  const found = palette.getByRole("group", { name: "Open questions with these words" }).getByRole("option");
  await expect(found).toHaveCount(1);
  await expect(found).toContainText(title);
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/questions\//);
  await expect(page.getByText(title).first()).toBeVisible();
  await expect(palette).toBeHidden();
  await page.context().close();
});

test("Ctrl-K goes to a page by its name, and the pages offered are the person's own", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/runs");
  const palette = await paletteWith(admin, "sla");
  await expect(palette.getByRole("option", { name: /SLA clocks/ })).toBeVisible();
  await admin.keyboard.press("Enter");
  await admin.waitForURL("**/admin/sla");
  await admin.context().close();

  const assignee = await signedInPage(browser, people.assignee);
  await assignee.goto("/inbox");
  const theirs = await paletteWith(assignee, "sla");
  await expect(theirs.getByText("Nothing you may open has these words.")).toBeVisible();
  await assignee.keyboard.press("Escape");
  await expect(theirs).toBeHidden();
  await assignee.context().close();
});

test("Ctrl-K finds a run by its title for an operator, and shows an assignee no runs", async ({ browser }) => {
  const title = uniqueTitle("Ferry crossing");
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Ferry Lines", amount: "31.00", incurredOn: "2026-11-16", assignee: people.assignee.name });
  const palette = await paletteWith(operator, title);
  const runs = palette.getByRole("group", { name: "Recent runs with these words" }).getByRole("option");
  await expect(runs).toHaveCount(1);
  await expect(runs).toContainText("Expense review");
  await runs.click();
  await operator.waitForURL(/\/tasks\//);
  await expect(operator.getByRole("heading", { level: 1 })).toContainText(title);
  await operator.context().close();

  const assignee = await signedInPage(browser, people.assignee);
  await assignee.goto("/inbox");
  await expect(assignee.getByTestId("inbox-row").filter({ hasText: title })).toBeVisible();
  // The run's question has the words of the claim's merchant (the run's title is the claim's, not the question's).
  const theirs = await paletteWith(assignee, "ferry lines");
  await expect(theirs.getByRole("group", { name: "Open questions with these words" }).getByRole("option")).toContainText(["Ferry Lines"]);
  await expect(theirs.getByRole("group", { name: /runs/i })).toHaveCount(0);
  await assignee.context().close();
});
