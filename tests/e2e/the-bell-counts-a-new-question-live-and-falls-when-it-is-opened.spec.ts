import type { Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

/** The bell's unread count as its accessible name says it. */
async function unread(page: Page): Promise<number> {
  const label = (await page.getByTestId("notification-bell").getAttribute("aria-label")) ?? "";
  return label.includes("none unread") ? 0 : Number(/(\d+) unread/.exec(label)?.[1]);
}

test("the bell counts a question put to someone without a reload, and the count falls when they open it", async ({ browser }) => {
  const assignee = await signedInPage(browser, people.otherAssignee);
  await assignee.goto("/profile");
  await assignee.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const before = await unread(assignee);

  const operator = await signedInPage(browser, people.operator);
  const merchant = uniqueTitle("Bell Bistro");
  await new RunsPage(operator).startReview({ title: uniqueTitle("Bell"), merchant, amount: "42.00", incurredOn: "2026-11-20", assignee: people.otherAssignee.name });

  const bell = assignee.getByTestId("notification-bell");
  await expect(bell).toHaveAttribute("aria-label", `Notifications, ${before + 1} unread`);
  expect(await assignee.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  await bell.click();
  await expect(assignee).toHaveURL(/\/notifications$/);
  const notification = assignee.getByTestId("notification").filter({ hasText: merchant });
  await expect(notification).toContainText("New question for you");
  await notification.getByRole("button").click();
  await expect(assignee).toHaveURL(/\/questions\//);
  await expect(assignee.getByRole("heading", { level: 1 })).toContainText(merchant);
  await expect(assignee.getByTestId("notification-bell")).toHaveAttribute("aria-label", before === 0 ? "Notifications, none unread" : `Notifications, ${before} unread`);

  for (const page of [assignee, operator]) await page.context().close();
});
