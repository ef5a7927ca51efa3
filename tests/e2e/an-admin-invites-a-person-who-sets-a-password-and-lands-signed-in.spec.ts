import { expect, people, signedInPage, test } from "./fixtures";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";

test("an admin adds a person; the invite link lets them set a password and lands them signed in, once", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin");
  await admin.getByRole("link", { name: "People", exact: true }).click();
  const peoplePage = new PeoplePage(admin);
  await expect(admin.getByRole("heading", { name: "People", level: 1 })).toBeVisible();
  const name = uniqueTitle("Nia Newcomer");
  const email = uniqueEmail("nia");

  const link = await peoplePage.addPerson({ name, email, roles: ["Assignee"] });
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  await expect(admin.getByTestId("invite-delivery")).toHaveText("Email is not configured on this Parley: hand the link over yourself.");
  await expect(peoplePage.row(name)).toContainText("never");
  // Shown once: a fresh look at the page has no link on it.
  await peoplePage.goto();
  expect(await admin.content()).not.toContain(link);

  const newcomer = await (await browser.newContext()).newPage();
  await newcomer.goto(link);
  await expect(newcomer.getByRole("heading", { name: `Welcome to Parley, ${name}` })).toBeVisible();
  await newcomer.getByLabel("New password").fill("a long new password");
  await newcomer.getByLabel("The same password again").fill("a long new password");
  await newcomer.getByRole("button", { name: "Set password and sign in" }).click();
  await newcomer.waitForURL("**/inbox");
  await expect(newcomer.getByTestId("user-name")).toHaveText(name);

  // The link is spent.
  await newcomer.goto(link);
  await expect(newcomer.getByRole("heading", { name: "This invite link no longer works" })).toBeVisible();
  await expect(newcomer.getByRole("alert").filter({ hasText: "This invite link has expired or has already been used." })).toBeVisible();
  await expect(newcomer.getByRole("link", { name: "sign in" })).toHaveAttribute("href", "/login");

  // The admin sees it happen on the person's page.
  await peoplePage.goto();
  await expect(peoplePage.row(name)).not.toContainText("never");
  await peoplePage.open(name);
  await expect(admin.getByTestId("person-history")).toContainText("Set their password through the invite link, and signed in");
  await expect(admin.getByTestId("person-history")).toContainText("Added to Parley as assignee");
  await newcomer.context().close();
  await admin.context().close();
});

test("a wrong invite token says the same as a used one, and offers sign-in", async ({ page }) => {
  await page.goto(`/invite/${"A".repeat(43)}`);
  await expect(page.getByRole("heading", { name: "This invite link no longer works" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "This invite link has expired or has already been used." })).toBeVisible();
  await page.getByRole("link", { name: "sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Parley" })).toBeVisible();
});

test("a password the rules refuse is said beside its field, and the link still works", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const peoplePage = new PeoplePage(admin);
  await peoplePage.goto();
  const name = uniqueTitle("Short Password");
  const link = await peoplePage.addPerson({ name, email: uniqueEmail("short") });
  const newcomer = await (await browser.newContext()).newPage();
  await newcomer.goto(link);
  await newcomer.getByLabel("New password").fill("short");
  await newcomer.getByLabel("The same password again").fill("short");
  // The browser's own check is only a hint; the server's is the rule.
  await newcomer.getByLabel("New password").evaluate((input) => input.removeAttribute("minlength"));
  await newcomer.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(newcomer.getByRole("alert").filter({ hasText: "Use at least 8 characters." })).toBeVisible();
  await expect(newcomer.getByLabel("New password")).toHaveAttribute("aria-invalid", "true");
  await newcomer.getByLabel("New password").fill("long enough now");
  await newcomer.getByLabel("The same password again").fill("long enough now");
  await newcomer.getByRole("button", { name: "Set password and sign in" }).click();
  await newcomer.waitForURL("**/inbox");
  await newcomer.context().close();
  await admin.context().close();
});
