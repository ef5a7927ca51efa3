import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";
import { RunPage } from "./pages/run-page";

test("an assignee gets 403 on a run page, even for a review they are asked in", async ({ browser }) => {
  const operator = await signedInPage(browser, people.operator);
  const title = uniqueTitle("Team offsite");
  await new RunsPage(operator).startReview({ title, merchant: "Quinta do Lago", amount: "980.00", incurredOn: "2026-11-02", assignee: people.assignee.name });
  const run = new RunPage(operator);
  await run.openFromRuns(title);
  const url = run.page.url();
  await operator.context().close();

  const assignee = await signedInPage(browser, people.assignee);
  const response = await assignee.goto(url);
  expect(response?.status()).toBe(403);
  await expect(assignee.getByTestId("run-events")).toHaveCount(0);
  await assignee.context().close();
});

test("an admin may watch a run page; an unknown or malformed task id is 404", async ({ browser }) => {
  const operator = await signedInPage(browser, people.operator);
  const title = uniqueTitle("Team offsite");
  await new RunsPage(operator).startReview({ title, merchant: "Quinta do Lago", amount: "980.00", incurredOn: "2026-11-02", assignee: people.assignee.name });
  const run = new RunPage(operator);
  await run.openFromRuns(title);
  const url = run.page.url();
  expect((await operator.goto("/tasks/00000000-0000-4000-8000-000000000000"))?.status()).toBe(404);
  expect((await operator.goto("/tasks/not-a-task"))?.status()).toBe(404);
  await operator.context().close();

  const admin = await signedInPage(browser, people.admin);
  expect((await admin.goto(url))?.status()).toBe(200);
  await expect(new RunPage(admin).status).toContainText("Waiting");
  await expect(admin.getByRole("button", { name: "Retry the run" })).toHaveCount(0);
  await admin.context().close();
});

test("an admin finds a run on Runs from the navigation and opens it, with no start form of a workflow they may not start", async ({ browser }) => {
  const operator = await signedInPage(browser, people.operator);
  const title = uniqueTitle("Client dinner");
  await new RunsPage(operator).startReview({ title, merchant: "Cervejaria Ramiro", amount: "212.40", incurredOn: "2026-11-03", assignee: people.assignee.name });
  await operator.context().close();

  const admin = await signedInPage(browser, people.admin);
  await admin.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Runs" }).click();
  await expect(admin).toHaveURL(/\/runs$/);
  await expect(admin.getByRole("heading", { name: "Runs", level: 1 })).toBeVisible();
  await expect(admin.locator("form.question-form")).toHaveCount(0);
  const runs = new RunsPage(admin);
  await expect(runs.row(title)).toHaveCount(1);
  await runs.row(title).getByRole("link", { name: new RegExp(title) }).click();
  await expect(new RunPage(admin).status).toContainText("Waiting");
  await admin.getByRole("link", { name: "← Runs" }).click();
  await expect(admin).toHaveURL(/\/runs$/);
  await expect(runs.row(title)).toHaveCount(1);
  await admin.context().close();
});
