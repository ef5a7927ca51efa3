import { expect, people, test } from "./fixtures";

// `%09` is a TAB: the query decodes to "/\t/evil.example", which browsers read as "//evil.example".
const HOSTILE = ["/%09/evil.example", "/%0a/evil.example", "/%0d/evil.example", "/%5C%5Cevil.example", "/.//evil.example"];

test("signing in with a hostile return address lands on this site", async ({ page, loginPage, baseURL }) => {
  await loginPage.goto(`/login?callbackUrl=${HOSTILE[0]}`);
  await loginPage.signIn(people.assignee.email, people.assignee.password);
  await expect(page.getByTestId("user-name")).toHaveText(people.assignee.name);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});

test("a signed-in visitor sent to sign-in with a hostile return address stays on this site, with no server error", async ({ page, loginPage, baseURL }) => {
  await loginPage.signInAs(people.assignee);
  for (const hostile of HOSTILE) {
    const response = await page.goto(`/login?callbackUrl=${hostile}`);
    expect(response?.status(), hostile).toBeLessThan(500);
    expect(new URL(page.url()).origin, hostile).toBe(new URL(baseURL!).origin);
    await expect(page.getByTestId("user-name")).toHaveText(people.assignee.name);
  }
});
