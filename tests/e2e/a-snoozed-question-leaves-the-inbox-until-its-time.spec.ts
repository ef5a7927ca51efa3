import type { Browser, Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey } from "./support/agent-keys";

/** Omar starts a review whose question goes to Sam; returns Sam's page on that question. */
async function samOnANewQuestion(browser: Browser, merchant: string, options?: { javaScriptEnabled: boolean }): Promise<Page> {
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title: uniqueTitle("Snooze"), merchant, amount: "64.00", incurredOn: "2026-11-17", assignee: people.assignee.name });
  await operator.context().close();
  const page = await signedInPage(browser, people.assignee, options);
  await expect(async () => {
    await page.goto("/inbox?view=assigned");
    await expect(page.getByTestId("inbox-row").filter({ hasText: merchant })).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await page.getByTestId("inbox-row").filter({ hasText: merchant }).getByRole("link").click();
  await page.waitForURL(/\/questions\//);
  return page;
}

test("a snoozed question leaves the inbox until its time, the inbox says when it comes back, and it can be brought back at once", async ({ browser }) => {
  const merchant = uniqueTitle("Snowed In Lodge");
  const page = await samOnANewQuestion(browser, merchant);
  await page.getByText("Snooze…").click();
  await page.getByLabel("For an hour").check();
  await page.getByRole("button", { name: "Snooze", exact: true }).click();

  await page.waitForURL(/\/inbox\?snoozed=/);
  await expect(page.getByTestId("just-snoozed")).toContainText("out of your inbox until");
  await expect(page.getByTestId("inbox-row").filter({ hasText: merchant })).toHaveCount(0);

  await page.getByRole("navigation", { name: "Inbox views" }).getByRole("link", { name: /^Snoozed/ }).click();
  const snoozed = page.getByTestId("snoozed-row").filter({ hasText: merchant });
  await expect(snoozed).toContainText("back");
  await snoozed.getByRole("button", { name: "Bring it back now" }).click();
  await expect(snoozed).toHaveCount(0);

  await page.goto("/inbox?view=assigned");
  await expect(page.getByTestId("inbox-row").filter({ hasText: merchant })).toBeVisible();
  await page.context().close();
});

test("without JavaScript, a question is snoozed from its page and its page says until when", async ({ browser }) => {
  const merchant = uniqueTitle("Quiet Harbour Inn");
  const page = await samOnANewQuestion(browser, merchant, { javaScriptEnabled: false });
  const questionUrl = page.url();
  await page.getByText("Snooze…").click();
  await page.getByLabel("For a day").check();
  await page.getByRole("button", { name: "Snooze", exact: true }).click();
  await page.waitForURL(/\/inbox\?snoozed=/);
  await expect(page.getByTestId("inbox-row").filter({ hasText: merchant })).toHaveCount(0);

  await page.goto(questionUrl);
  await expect(page.getByTestId("snoozed")).toContainText("out of your inbox until");
  await page.getByRole("button", { name: "Bring it back now" }).click();
  await expect(page.getByTestId("snooze-panel")).toBeVisible();
  await page.context().close();
});

test("a search of the inbox finds a snoozed question, under what I snoozed, and says when it comes back", async ({ browser, baseURL }) => {
  const parley = clientFor(baseURL!, await makeAgentKey(browser, "Snooze search bot"));
  const title = uniqueTitle("Renew the Lisbon lease?");
  await parley.createAsk({ to: people.assignee.email, title });
  const page = await signedInPage(browser, people.assignee);
  await page.goto("/inbox?view=assigned");
  await page.getByTestId("inbox-row").filter({ hasText: title }).getByRole("link").click();
  await page.waitForURL(/\/questions\//);
  await page.getByText("Snooze…").click();
  await page.getByLabel("For a day").check();
  await page.getByRole("button", { name: "Snooze", exact: true }).click();
  await page.waitForURL(/\/inbox\?snoozed=/);

  const search = page.getByRole("search", { name: "Find a question" });
  await search.getByLabel("Words, in any view").fill(title);
  await search.getByLabel("Words, in any view").press("Enter");
  await expect(search.getByRole("status")).toContainText("0 open questions, 1 snoozed and 0 answered found, in every view");
  await expect(page.getByRole("heading", { name: "Snoozed by me" })).toBeVisible();
  const found = page.getByRole("list", { name: "Snoozed questions found" }).getByTestId("snoozed-row").filter({ hasText: title });
  await expect(found).toContainText("back");
  await expect(page.getByTestId("inbox-row").filter({ hasText: title })).toHaveCount(0);
  await page.context().close();
});
