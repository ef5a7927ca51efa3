import type { Browser, Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";

/** A person an admin added, signed in through their invite link in a browser of their own. */
async function invitedAndSignedIn(browser: Browser, admin: Page, password: string) {
  const peoplePage = new PeoplePage(admin);
  await peoplePage.goto();
  const name = uniqueTitle("Dee Parting");
  const email = uniqueEmail("dee");
  const link = await peoplePage.addPerson({ name, email });
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("The same password again").fill(password);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.waitForURL("**/inbox");
  return { name, email, page, peoplePage };
}

test("a deactivated person's next page load sends them to sign-in, where they are told why; reactivated, they sign in again", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const password = "a long new password";
  const { name, email, page, peoplePage } = await invitedAndSignedIn(browser, admin, password);

  await peoplePage.goto();
  await peoplePage.open(name);
  await admin.getByRole("button", { name: `Deactivate ${name}` }).click();
  await expect(admin.getByRole("status").filter({ hasText: `${name} is deactivated` })).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  const login = new LoginPage(page);
  await login.signIn(email, password);
  await expect(login.error).toHaveText("Your Parley account has been deactivated, so you can't sign in. Ask an admin if you need it back.");
  // A wrong password says nothing of it.
  await login.signIn(email, "not the password");
  await expect(login.error).toHaveText("That email and password don't match an account. Check both and try again.");

  await admin.reload();
  await admin.getByRole("button", { name: `Reactivate ${name}` }).click();
  await expect(admin.getByRole("status").filter({ hasText: `${name} can sign in again.` })).toBeVisible();
  await expect(admin.getByTestId("person-history")).toContainText("Deactivated: signed out everywhere, and cannot sign in");
  await expect(admin.getByTestId("person-history")).toContainText("Reactivated: can sign in again");

  await login.signIn(email, password);
  await page.waitForURL("**/inbox");
  await expect(page.getByTestId("user-name")).toHaveText(name);
  await page.context().close();
  await admin.context().close();
});

test("the last admin is told they cannot deactivate themselves or drop their own admin role", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const peoplePage = new PeoplePage(admin);
  await peoplePage.goto();
  await peoplePage.open(people.admin.name);
  await admin.getByRole("button", { name: `Deactivate ${people.admin.name}` }).click();
  await expect(admin.getByRole("alert").filter({ hasText: "You are the last admin: make someone else an admin before deactivating yourself." })).toBeVisible();
  await admin.getByRole("group", { name: `Roles of ${people.admin.name}` }).getByRole("checkbox", { name: "Admin" }).uncheck();
  await admin.getByRole("checkbox", { name: "Operator" }).check();
  await admin.getByRole("button", { name: "Save roles" }).click();
  await expect(admin.getByRole("alert").filter({ hasText: "You are the last admin: make someone else an admin before removing your own admin role." })).toBeVisible();
  await admin.reload();
  await expect(admin.getByRole("group", { name: `Roles of ${people.admin.name}` }).getByRole("checkbox", { name: "Admin" })).toBeChecked();
  await expect(admin.getByRole("group", { name: `Roles of ${people.admin.name}` }).getByRole("checkbox", { name: "Operator" })).not.toBeChecked();
  await admin.context().close();
});
