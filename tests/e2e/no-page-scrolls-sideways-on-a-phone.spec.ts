import type { Browser, Page } from "@playwright/test";
import type { DemoUser } from "@/lib/demo-people";
import { expect, people, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { LoginPage } from "./pages/login-page";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

const PHONE = { width: 390, height: 844 };

async function onPhone(browser: Browser, user: DemoUser): Promise<Page> {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  await new LoginPage(page).signInAs(user);
  return page;
}

/** How far the page reaches to the right: more than the viewport means it scrolls sideways. */
async function pageWidth(page: Page, path: string): Promise<number> {
  await page.goto(path);
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test("no signed-in page scrolls sideways on a 390 px phone, for any role", async ({ browser }) => {
  test.setTimeout(90_000);
  // A question and a run to look at: an operator starts a review the Auditor will ask about.
  const title = uniqueTitle("Phone check");
  const operator = await onPhone(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "A merchant with a rather long name, Lda.", amount: "1250.00", incurredOn: "2026-11-02", assignee: people.assignee.name });
  const assignee = await onPhone(browser, people.assignee);
  await assignee.goto("/inbox?view=assigned");
  const question = assignee.getByTestId("inbox-row").filter({ hasText: title }).getByRole("link").first();
  await expect(question).toBeVisible();
  const questionPath = new URL((await question.getAttribute("href"))!, "http://x").pathname;
  await operator.goto("/runs");
  const runPath = (await new RunsPage(operator).row(title).getByRole("link", { name: title }).getAttribute("href"))!;
  const admin = await onPhone(browser, people.admin);

  const widths: Record<string, number> = {};
  for (const [role, page, paths] of [
    ["assignee", assignee, ["/inbox", "/inbox?view=answered", questionPath, "/profile"]],
    ["operator", operator, ["/runs", "/runs?start=ReviewClaim", "/runs?start=DeployApproval", runPath, "/profile"]],
    ["admin", admin, ["/admin", "/admin/sla", "/admin/api-keys", "/admin/people", "/admin/groups", "/profile"]],
  ] as const) {
    for (const path of paths) widths[`${role} ${path}`] = await pageWidth(page, path);
  }
  // A new key's secrets, shown once, are the longest unbroken text on any page.
  for (const [role, page, path] of [
    ["admin", admin, "/admin/api-keys"],
    ["assignee", assignee, "/profile"],
  ] as const) {
    const keys = new ApiKeysPage(page, path);
    await keys.goto();
    await keys.create(uniqueTitle("A key with a long name for a narrow screen"));
    await expect(keys.newSecret).toBeVisible();
    widths[`${role} ${path} with a new key`] = await page.evaluate(() => document.documentElement.scrollWidth);
  }
  // So is an invite link, shown once when a person is added; and a person's page.
  const peoplePage = new PeoplePage(admin);
  await peoplePage.goto();
  const name = uniqueTitle("Someone with a long name for a narrow screen");
  await peoplePage.addPerson({ name, email: uniqueEmail("a-rather-long-address-for-a-narrow-screen") });
  widths["admin /admin/people with a new invite link"] = await admin.evaluate(() => document.documentElement.scrollWidth);
  await peoplePage.goto();
  await peoplePage.open(name);
  widths["admin a person's page"] = await admin.evaluate(() => document.documentElement.scrollWidth);
  expect(Object.entries(widths).filter(([, width]) => width > PHONE.width)).toEqual([]);
  for (const page of [operator, assignee, admin]) await page.context().close();
});
