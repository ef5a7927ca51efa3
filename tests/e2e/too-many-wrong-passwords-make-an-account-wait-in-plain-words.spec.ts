import { expect, people, signedInPage, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";

test("five wrong passwords make the account wait, and the right one is refused too until the wait ends", async ({ browser }) => {
  // A person of this test's own, so no other test's sign-in waits with them.
  const admin = await signedInPage(browser, people.admin);
  const peoplePage = new PeoplePage(admin);
  await peoplePage.goto();
  const name = uniqueTitle("Tess Tried");
  const email = uniqueEmail("tess");
  const link = await peoplePage.addPerson({ name, email });
  const password = "the right long password";
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("The same password again").fill(password);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.waitForURL("**/inbox");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login");

  const login = new LoginPage(page);
  await login.goto();
  // The sign-in form's own alert (the route announcer, an alert too, names the page after the sign-out).
  const error = login.error.and(page.locator(".error-banner"));
  /** One sign-in, waited for: the same refusal twice in a row would otherwise not tell one from the next. */
  const attempt = async (typed: string) => {
    const answered = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/login");
    await login.signIn(email, typed);
    await answered;
  };
  for (let count = 1; count <= 4; count++) {
    await attempt(`wrong guess ${count}`);
    await expect(error).toHaveText("That email and password don't match an account. Check both and try again.");
  }
  await attempt("wrong guess 5");
  await expect(error).toHaveText("Too many attempts — try again in 1 minute.");

  await attempt(password);
  await expect(error).toHaveText("Too many attempts — try again in 1 minute.");
  await expect(page).toHaveURL(/\/login/);
  await page.context().close();
  await admin.context().close();
});
