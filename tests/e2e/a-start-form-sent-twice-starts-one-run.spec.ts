import { expect, people, signedInPage, test } from "./fixtures";
import { choosePerson, RunsPage, uniqueTitle } from "./pages/runs-page";

test("a start form sent again with its first token starts nothing and points to the run it started; the next start is a new run", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const runs = new RunsPage(page);
  const token = page.locator('form.question-form input[name="startToken"]');
  const first = uniqueTitle("Ferry to Cacilhas");
  await runs.fillClaim({ title: first, merchant: "Transtejo", amount: "3.10", incurredOn: "2026-11-20", assignee: people.assignee.name });
  const firstToken = await token.inputValue();
  expect(firstToken).toMatch(/^[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Start review" }).click();
  await expect(runs.started(`Claim: ${first}`)).toBeVisible();

  // The same form goes on to start another run: it carries a new token.
  await expect(token).not.toHaveValue(firstToken);
  const second = uniqueTitle("Ferry back");
  await page.getByLabel("Title").fill(second);
  await page.getByLabel("Merchant").fill("Transtejo");
  await page.getByLabel("Amount").fill("3.10");
  await page.getByLabel("Date of the charge").fill("2026-11-20");
  await choosePerson(page, /Who answers the Auditor/, people.assignee.name);
  await page.getByRole("button", { name: "Start review" }).click();
  await expect(runs.started(`Claim: ${second}`)).toBeVisible();

  // The first submission again (the reply to it was lost): nothing starts, and the page points to the first run.
  const replay = uniqueTitle("Never started");
  await page.getByLabel("Title").fill(replay);
  await page.getByLabel("Merchant").fill("Transtejo");
  await page.getByLabel("Amount").fill("3.10");
  await page.getByLabel("Date of the charge").fill("2026-11-20");
  await choosePerson(page, /Who answers the Auditor/, people.assignee.name);
  // Put back as the form is sent, not before: the page re-renders itself when the runs started above move
  // on (live refresh), and a re-render sets the hidden field back to the form's current token.
  await page.locator("form.question-form").evaluate((form, value) => {
    form.addEventListener("submit", () => ((form.querySelector('input[name="startToken"]') as HTMLInputElement).value = value), { once: true });
  }, firstToken);
  await page.getByRole("button", { name: "Start review" }).click();
  const status = page.getByRole("status").filter({ hasText: "had already started" });
  await expect(status).toContainText(`Claim: ${first}`);
  const firstRun = await status.getByRole("link", { name: "Watch the run" }).getAttribute("href");

  await runs.goto();
  await expect(runs.row(first)).toHaveCount(1);
  await expect(runs.row(second)).toHaveCount(1);
  await expect(runs.row(replay)).toHaveCount(0);
  expect(await runs.row(first).getByRole("link", { name: new RegExp(first) }).getAttribute("href")).toBe(firstRun);
  await page.context().close();
});
