import type { Browser, Locator, Page } from "@playwright/test";
import type { DemoUser } from "@/lib/demo-people";
import { expect, people, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { groupPagesToLookAt } from "./pages/groups-page";
import { LoginPage } from "./pages/login-page";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";
import { reviewsToLookAt } from "./support/reviews-to-look-at";

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

/** Whether the whole of `locator` lies within the phone's width (scrolling down is fine, sideways is not). */
async function expectOnScreen(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = (await locator.boundingBox())!;
  expect(box.x, `left edge of ${locator}`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `right edge of ${locator}`).toBeLessThanOrEqual(PHONE.width);
}

test("no signed-in page scrolls sideways on a 390 px phone, for any role", async ({ browser }) => {
  test.setTimeout(120_000);
  const operator = await onPhone(browser, people.operator);
  const assignee = await onPhone(browser, people.assignee);
  const admin = await onPhone(browser, people.admin);
  const reviews = await reviewsToLookAt(operator, assignee);
  const peoplePage = new PeoplePage(admin);
  await peoplePage.goto();
  await peoplePage.open(people.assignee.name);
  const personPath = new URL(admin.url()).pathname;
  const groupPaths = await groupPagesToLookAt(admin);

  const widths: Record<string, number> = {};
  for (const [role, page, paths] of [
    [
      "assignee",
      assignee,
      [
        "/inbox?view=assigned",
        "/inbox?view=candidates",
        "/inbox?view=team",
        "/inbox?view=overdue",
        "/inbox?view=answered",
        "/inbox?view=assigned&due=week&sort=newest",
        "/inbox?view=assigned&due=soonish&sort=sideways",
        reviews.openQuestion,
        reviews.answeredQuestion,
        "/profile",
        "/notifications",
      ],
    ],
    ["operator", operator, ["/runs", "/runs?start=ReviewClaim", "/runs?start=DeployApproval", reviews.run, "/profile", "/notifications"]],
    ["admin", admin, ["/admin", "/runs", "/admin/sla", "/admin/api-keys", "/admin/audit", "/admin/people", personPath, "/admin/groups", ...groupPaths, "/profile", "/notifications"]],
  ] as const) {
    for (const path of paths) widths[`${role} ${path}`] = await pageWidth(page, path);
  }
  // The run page with its step to confirm a cancel open.
  await operator.goto(reviews.run);
  await operator.getByText("Cancel this run…").click();
  await expect(operator.getByRole("button", { name: "Yes, cancel this run" })).toBeVisible();
  widths["operator run page with the cancel step open"] = await operator.evaluate(() => document.documentElement.scrollWidth);
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
  await peoplePage.goto();
  const name = uniqueTitle("Someone with a long name for a narrow screen");
  await peoplePage.addPerson({ name, email: uniqueEmail("a-rather-long-address-for-a-narrow-screen") });
  widths["admin /admin/people with a new invite link"] = await admin.evaluate(() => document.documentElement.scrollWidth);
  await peoplePage.goto();
  await peoplePage.open(name);
  widths["admin a new person's page"] = await admin.evaluate(() => document.documentElement.scrollWidth);
  expect(Object.entries(widths).filter(([, width]) => width > PHONE.width)).toEqual([]);
  for (const page of [operator, assignee, admin]) await page.context().close();
});

test("on a 390 px phone, Sign out, Away, the SLA clock and its Reassign and Remind are on screen", async ({ browser }) => {
  test.setTimeout(90_000);
  const operator = await onPhone(browser, people.operator);
  const assignee = await onPhone(browser, people.assignee);
  await reviewsToLookAt(operator, assignee);
  await assignee.goto("/inbox");
  await expectOnScreen(assignee.getByRole("button", { name: "Sign out" }));
  await expectOnScreen(assignee.getByRole("switch", { name: "Away" }));

  const admin = await onPhone(browser, people.admin);
  await admin.goto("/admin/sla");
  const row = admin.getByTestId("open-slot").filter({ has: admin.getByRole("button", { name: /^Remind/ }) }).first();
  await expectOnScreen(row.locator("td[data-label='Time left'] .sla-clock"));
  await expectOnScreen(row.getByRole("link", { name: /^Reassign/ }));
  await expectOnScreen(row.getByRole("button", { name: /^Remind/ }));
  for (const page of [operator, assignee, admin]) await page.context().close();
});

test("no page for a visitor scrolls sideways on a 390 px phone: sign-in, an invite, an answer link, a missing page", async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: PHONE })).newPage();
  const widths: Record<string, number> = {};
  for (const path of ["/login", "/invite/not-a-real-invite", "/a/not-a-real-link", "/no-such-page"]) widths[path] = await pageWidth(page, path);
  expect(Object.entries(widths).filter(([, width]) => width > PHONE.width)).toEqual([]);
  await page.context().close();
});
