import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("a question put to someone appears in their open inbox without a reload, in the agent's words", async ({ browser }) => {
  const assignee = await signedInPage(browser, people.otherAssignee);
  await assignee.goto("/inbox?view=assigned");
  await assignee.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  const operator = await signedInPage(browser, people.operator);
  const title = uniqueTitle("Team offsite");
  await new RunsPage(operator).startReview({ title, merchant: "Harbour Hotel", amount: "980.00", incurredOn: "2026-11-12", assignee: people.otherAssignee.name });

  const row = assignee.getByTestId("inbox-row").filter({ hasText: title });
  await expect(row).toContainText("What was the 980.00 USD charge at Harbour Hotel on 2026-11-12 for?");
  await expect(row).toContainText("The agent Auditor asks about Claim: " + title);
  await expect(row.locator(".sla-clock")).toHaveText(/^1d 23h left$|^2d left$/);
  expect(await assignee.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  // The same question is open to the other assignees, under their candidates.
  const candidate = await signedInPage(browser, people.assignee);
  await candidate.goto("/inbox?view=candidates");
  await expect(candidate.getByTestId("inbox-row").filter({ hasText: title })).toBeVisible();
  await candidate.goto("/inbox?view=assigned");
  await expect(candidate.getByTestId("inbox-row").filter({ hasText: title })).toHaveCount(0);

  for (const page of [assignee, operator, candidate]) await page.context().close();
});
