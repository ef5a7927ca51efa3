import { expect, people, signedInPage, test } from "./fixtures";
import { expectPersonChosen, RunsPage, uniqueTitle } from "./pages/runs-page";

test("an operator picks a workflow, starts it from the form generated from its start schema, lands on the run, and the run waits on the person chosen", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const runs = new RunsPage(page);
  await runs.goto();
  // Every registered workflow the operator may start is offered by its label.
  const offered = page.getByRole("navigation", { name: "Workflows you can start" });
  await expect(offered.getByRole("link", { name: "Expense review" })).toBeVisible();
  await offered.getByRole("link", { name: "Expense review" }).click();
  await expect(page.getByRole("heading", { name: "Start: Expense review" })).toBeVisible();
  const title = uniqueTitle("Client lunch");
  await runs.startReview({ title, merchant: "Casa Lisboa", amount: "212.40", incurredOn: "2026-11-18", assignee: people.otherAssignee.name });
  // The start lands on the new run.
  await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}\?started=new$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Claim: ${title}`);
  await runs.goto();
  const row = runs.row(title);
  await expect(row).toContainText("212.40 USD");
  await expect(row).toContainText("Expense review");
  await expect(row).toContainText(people.operator.name);
  // The Auditor runs in the background and parks on its question; the list follows it live.
  await expect(row).toContainText("Waiting");
  await expect(row).toContainText(people.otherAssignee.name);
  await page.context().close();
});

test("Enter in the amount starts the review, as in any field asked on one line", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const runs = new RunsPage(page);
  const title = uniqueTitle("Taxi to the airport");
  await runs.fillClaim({ title, merchant: "Cabify", amount: "", incurredOn: "2026-11-20", assignee: people.assignee.name });
  await page.getByLabel("Amount").fill("31.90");
  await page.getByLabel("Amount").press("Enter");
  await expect(runs.started(`Claim: ${title}`)).toBeVisible();
  await page.context().close();
});

test("a start form the schema refuses keeps everything typed, with the schema's reason beside each field", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const runs = new RunsPage(page);
  await runs.fillClaim({ title: "Hotel", merchant: "", amount: "12,50", incurredOn: "2026-11-18", assignee: people.assignee.name });
  const allRuns = page.getByRole("navigation", { name: "Filter by state" }).getByRole("link", { name: /^All/ }).locator(".count");
  const before = await allRuns.textContent();
  await page.getByRole("button", { name: "Start review" }).click();
  await expect(page.getByText("Write the amount as a number with up to two decimals, like 412.80.")).toBeVisible();
  await expect(page.getByText("Say who was paid.")).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue("Hotel");
  await expect(page.getByLabel("Amount")).toHaveValue("12,50");
  await expectPersonChosen(page, /Who answers the Auditor/, people.assignee.name);
  // Nothing started.
  await page.reload();
  await expect(allRuns).toHaveText(before!);
  await page.context().close();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the generated start form is a plain form post: refusals come back inline, and a good one starts the run", async ({ browser }) => {
    const page = await signedInPage(browser, people.operator);
    const runs = new RunsPage(page);
    const title = uniqueTitle("Train to Porto");
    await runs.fillClaim({ title, merchant: "", amount: "48.00", incurredOn: "2026-11-19", assignee: people.assignee.name });
    await page.getByRole("button", { name: "Start review" }).click();
    await expect(page.getByText("Say who was paid.")).toBeVisible();
    await expect(page.getByLabel("Title")).toHaveValue(title);
    await page.getByLabel("Merchant").fill("Comboios");
    await page.getByRole("button", { name: "Start review" }).click();
    await expect(runs.started(`Claim: ${title}`)).toBeVisible();
    await runs.goto();
    await expect(runs.row(title)).toContainText("48.00 USD");
    await page.context().close();
  });
});
