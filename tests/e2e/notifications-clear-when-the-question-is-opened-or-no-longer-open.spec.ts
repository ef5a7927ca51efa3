import type { Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";
import { makePersonalToken } from "./support/personal-token";

/** The bell's unread count as its accessible name says it. */
async function unread(page: Page): Promise<number> {
  const label = (await page.getByTestId("notification-bell").getAttribute("aria-label")) ?? "";
  return label.includes("none unread") ? 0 : Number(/(\d+) unread/.exec(label)?.[1]);
}

function bellSays(count: number): string {
  return count === 0 ? "Notifications, none unread" : `Notifications, ${count} unread`;
}

/** An operator puts an expense question about `merchant` to Priya; she watches her bell rise by one, live. */
async function questionForPriya(browser: Parameters<typeof signedInPage>[0], priya: Page, merchant: string): Promise<number> {
  await priya.goto("/profile");
  const before = await unread(priya);
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title: uniqueTitle("Bell"), merchant, amount: "42.00", incurredOn: "2026-11-20", assignee: people.otherAssignee.name });
  await operator.context().close();
  await expect(priya.getByTestId("notification-bell")).toHaveAttribute("aria-label", bellSays(before + 1));
  return before;
}

test("opening a question from the inbox marks its notification read: the bell falls without the notification being opened", async ({ browser }) => {
  const priya = await signedInPage(browser, people.otherAssignee);
  const merchant = uniqueTitle("Inbox Tavern");
  const before = await questionForPriya(browser, priya, merchant);

  await priya.goto("/inbox?view=assigned");
  await priya.getByTestId("inbox-row").filter({ hasText: merchant }).getByRole("link").first().click();
  await expect(priya).toHaveURL(/\/questions\//);
  await expect(priya.getByTestId("notification-bell")).toHaveAttribute("aria-label", bellSays(before));
  await priya.goto("/notifications");
  await expect(priya.getByRole("list", { name: "Notifications" }).getByTestId("notification").filter({ hasText: merchant })).not.toHaveClass(/unread/);
  await priya.context().close();
});

test("a notification about a question answered elsewhere leaves the bell and folds away under “no longer open”", async ({ browser }) => {
  const priya = await signedInPage(browser, people.otherAssignee);
  const merchant = uniqueTitle("Terminal Café");
  await questionForPriya(browser, priya, merchant);

  // Answered at the terminal: her browser never opened it.
  await priya.goto("/inbox?view=assigned");
  const questionId = (await priya.getByTestId("inbox-row").filter({ hasText: merchant }).getByRole("link").first().getAttribute("href"))!.split("/").at(-1)!;
  const token = await makePersonalToken(browser, people.otherAssignee, uniqueTitle("Terminal"));
  const answered = await priya.request.post(`/api/v1/questions/${questionId}/answer`, { headers: { authorization: `Bearer ${token}` }, data: { answers: { answer: "Coffee with the client before the audit." } } });
  expect(answered.status()).toBe(200);

  await priya.goto("/notifications");
  const current = priya.getByRole("list", { name: "Notifications" });
  await expect(current.getByTestId("notification").filter({ hasText: merchant })).toHaveCount(0);
  // The run goes on and may ask her something new (its questionnaire): the bell counts that, not the answered one.
  await expect.poll(async () => (await unread(priya)) === (await current.locator(".notification.unread").count())).toBe(true);
  const folded = priya.getByTestId("notifications-settled");
  await expect(folded.getByTestId("notification").filter({ hasText: merchant })).toBeHidden();
  await folded.locator("summary").click();
  await expect(folded.getByTestId("notification").filter({ hasText: merchant })).toContainText("no longer open");
  await priya.context().close();
});
