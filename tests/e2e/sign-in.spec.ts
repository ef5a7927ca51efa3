import { expect, people, test } from "./fixtures";

test("the right password signs a person in to their start page", async ({ page, loginPage }) => {
  await loginPage.goto();
  await loginPage.signIn(people.assignee.email, people.assignee.password);
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByTestId("user-name")).toHaveText(people.assignee.name);
});

test("the email is matched whatever its case and surrounding spaces", async ({ page, loginPage }) => {
  await loginPage.goto();
  await loginPage.signIn(`  ${people.operator.email.toUpperCase()} `, people.operator.password);
  await expect(page).toHaveURL(/\/runs$/);
});

test("a wrong password gets a clear message and keeps the email typed", async ({ page, loginPage }) => {
  await loginPage.goto();
  await loginPage.signIn(people.assignee.email, "not-the-password");
  await expect(loginPage.error).toHaveText(/email and password don't match/);
  await expect(loginPage.email).toHaveValue(people.assignee.email);
  await expect(loginPage.password).toHaveValue("");
  await expect(page).toHaveURL(/\/login/);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a wrong password still gets the message and keeps the email", async ({ loginPage }) => {
    await loginPage.goto();
    await loginPage.signIn(people.assignee.email, "not-the-password");
    await expect(loginPage.error).toHaveText(/email and password don't match/);
    await expect(loginPage.email).toHaveValue(people.assignee.email);
  });

  test("the right password signs in", async ({ page, loginPage }) => {
    await loginPage.goto();
    await loginPage.signIn(people.admin.email, people.admin.password);
    await expect(page).toHaveURL(/\/admin$/);
  });
});

test("signing out ends the session", async ({ page, loginPage }) => {
  await loginPage.signInAs(people.operator);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/runs");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fruns/);
});
