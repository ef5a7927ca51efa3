import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("a start lands on the new run; the same form sent again with its token starts nothing and lands on the run it started", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  const runs = new RunsPage(page);
  const token = page.locator('form.question-form input[name="startToken"]');
  const first = uniqueTitle("Ferry to Cacilhas");
  await runs.fillClaim({ title: first, merchant: "Transtejo", amount: "3.10", incurredOn: "2026-11-20", assignee: people.assignee.name });
  const firstToken = await token.inputValue();
  expect(firstToken).toMatch(/^[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Start review" }).click();
  await expect(runs.started(`Claim: ${first}`)).toBeVisible();
  await expect(page).toHaveURL(/\/tasks\/[0-9a-f-]{36}\?started=new$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Claim: ${first}`);
  const firstRun = new URL(page.url()).pathname;

  // The form again (a new rendering, a new token): the first submission sent once more, as when its reply was lost.
  const replay = uniqueTitle("Never started");
  await runs.fillClaim({ title: replay, merchant: "Transtejo", amount: "3.10", incurredOn: "2026-11-20", assignee: people.assignee.name });
  await expect(token).not.toHaveValue(firstToken);
  // Put back as the form is sent, not before: the page re-renders itself when the run started above moves
  // on (live refresh), and a re-render sets the hidden field back to the form's current token.
  await page.locator("form.question-form").evaluate((form, value) => {
    form.addEventListener("submit", () => ((form.querySelector('input[name="startToken"]') as HTMLInputElement).value = value), { once: true });
  }, firstToken);
  await page.getByRole("button", { name: "Start review" }).click();
  await expect(page.getByTestId("started")).toContainText(`That form had already started “Claim: ${first}”, so nothing more was started`);
  expect(new URL(page.url()).pathname).toBe(firstRun);

  await runs.goto();
  await expect(runs.row(first)).toHaveCount(1);
  await expect(runs.row(replay)).toHaveCount(0);
  await page.context().close();
});
