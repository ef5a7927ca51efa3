import { expect, people, test } from "./fixtures";

for (const path of ["/", "/inbox", "/runs", "/admin"]) {
  test(`a signed-out visitor to ${path} is sent to sign-in`, async ({ page, loginPage }) => {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login(\?|$)/);
    await expect(loginPage.email).toBeVisible();
  });
}

test("after signing in, the visitor is back on the page they asked for", async ({ page, loginPage }) => {
  await page.goto("/admin");
  await loginPage.signIn(people.admin.email, people.admin.password);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole("heading", { name: "Admin" })).toBeVisible();
});
