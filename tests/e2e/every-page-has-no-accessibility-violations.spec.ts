import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import type { DemoUser } from "@/lib/demo-people";
import { expect, people, test } from "./fixtures";
import { groupPagesToLookAt } from "./pages/groups-page";
import { LoginPage } from "./pages/login-page";
import { PeoplePage } from "./pages/people-page";
import { reviewsToLookAt } from "./support/reviews-to-look-at";

/** Each screen size in the light theme, and the dark one (the system's setting) where its colours are judged again. */
const SCREENS = [
  { name: "desktop", viewport: { width: 1280, height: 800 }, colorScheme: "light" },
  { name: "390 px phone", viewport: { width: 390, height: 844 }, colorScheme: "light" },
  { name: "desktop in the dark theme", viewport: { width: 1280, height: 800 }, colorScheme: "dark" },
] as const;

type Screen = (typeof SCREENS)[number];

/** axe-core's findings on the page at `path`, one readable line each: rule, impact, where, what to fix. */
async function violations(page: Page, path: string): Promise<string[]> {
  await page.goto(path);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${path}: ${violation.id} (${violation.impact}) at ${node.target.join(" ")} — ${node.failureSummary?.replace(/\s+/g, " ") ?? violation.help}`,
    ),
  );
}

async function signedIn(browser: Browser, { viewport, colorScheme }: Screen, user: DemoUser): Promise<Page> {
  const page = await (await browser.newContext({ viewport, colorScheme })).newPage();
  await new LoginPage(page).signInAs(user);
  return page;
}

for (const screen of SCREENS) {
  test(`every page has no accessibility violations on a ${screen.name}, for any role`, async ({ browser }) => {
    test.setTimeout(180_000);
    const operator = await signedIn(browser, screen, people.operator);
    const assignee = await signedIn(browser, screen, people.assignee);
    const admin = await signedIn(browser, screen, people.admin);
    const visitor = await (await browser.newContext({ viewport: screen.viewport, colorScheme: screen.colorScheme })).newPage();
    const reviews = await reviewsToLookAt(operator, assignee);
    const peoplePage = new PeoplePage(admin);
    await peoplePage.goto();
    await peoplePage.open(people.assignee.name);
    const personPath = new URL(admin.url()).pathname;
    const groupPaths = await groupPagesToLookAt(admin);

    const found: string[] = [];
    for (const [page, paths] of [
      [visitor, ["/login", "/invite/not-a-real-invite", "/a/not-a-real-link", "/no-such-page"]],
      [
        assignee,
        [
          "/inbox?view=assigned",
          "/inbox?view=candidates",
          "/inbox?view=team",
          "/inbox?view=overdue",
          "/inbox?view=answered",
          "/inbox?view=snoozed",
          "/inbox?view=assigned&due=week&sort=newest",
          "/inbox?view=assigned&due=soonish&sort=sideways",
          reviews.openQuestion,
          reviews.answeredQuestion,
          "/profile",
          "/notifications",
          "/no-such-page",
        ],
      ],
      [operator, ["/runs", "/runs?start=ReviewClaim", "/runs?start=DeployApproval", reviews.run, "/profile", "/notifications"]],
      [admin, ["/admin", "/runs", "/admin/sla", "/admin/people", personPath, "/admin/groups", ...groupPaths, "/admin/api-keys", "/admin/audit", "/profile", "/notifications"]],
    ] as const) {
      for (const path of paths) found.push(...(await violations(page, path)));
    }
    // The run page with its step to confirm a cancel open.
    await operator.goto(reviews.run);
    await operator.getByText("Cancel this run…").click();
    await expect(operator.getByRole("button", { name: "Yes, cancel this run" })).toBeVisible();
    const { violations: cancelStep } = await new AxeBuilder({ page: operator }).analyze();
    found.push(...cancelStep.flatMap((violation) => violation.nodes.map((node) => `${reviews.run} (cancel step open): ${violation.id} at ${node.target.join(" ")}`)));
    expect(found, `axe-core found ${found.length} violations:\n${found.join("\n")}`).toEqual([]);
    for (const page of [operator, assignee, admin, visitor]) await page.context().close();
  });
}
