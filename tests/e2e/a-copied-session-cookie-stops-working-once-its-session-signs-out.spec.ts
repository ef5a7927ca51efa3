import type { Browser, Page } from "@playwright/test";
import type { DemoUser } from "@/lib/demo-people";
import { expect, people, signedInPage, test } from "./fixtures";

/** A second browser holding a copy of `page`'s cookies, showing the inbox as that person. */
async function copiedInto(browser: Browser, page: Page, user: DemoUser): Promise<Page> {
  const copy = await (await browser.newContext()).newPage();
  await copy.context().addCookies(await page.context().cookies());
  await copy.goto("/inbox");
  await expect(copy.getByTestId("user-name")).toHaveText(user.name);
  return copy;
}

/** What a copied cookie can still do: open the inbox (no: sent to sign-in) and flip the away switch (no: nothing changes). */
async function expectSignedOut(browser: Browser, copy: Page, user: DemoUser) {
  // The copy still shows the page it loaded before the sign-out: its action is refused.
  await copy.getByRole("switch", { name: "Away" }).click();
  await copy.goto("/inbox");
  await expect(copy).toHaveURL(/\/login/);
  const fresh = await signedInPage(browser, user);
  await expect(fresh.getByRole("switch", { name: "Away" })).toHaveAttribute("aria-checked", "false");
  await fresh.context().close();
}

test("a copy of the session cookie is refused once the person signs out with the Sign out button", async ({ browser }) => {
  const user = people.otherAssignee;
  const page = await signedInPage(browser, user);
  const copy = await copiedInto(browser, page, user);

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login");

  await expectSignedOut(browser, copy, user);
  await page.context().close();
  await copy.context().close();
});

test("a copy of the session cookie is refused once the session is signed out at /api/auth/signout", async ({ browser }) => {
  const user = people.otherAssignee;
  const page = await signedInPage(browser, user);
  const copy = await copiedInto(browser, page, user);

  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const signedOut = await page.request.post("/api/auth/signout", { form: { csrfToken }, maxRedirects: 0 });
  expect(signedOut.status()).toBe(302);

  await expectSignedOut(browser, copy, user);
  await page.context().close();
  await copy.context().close();
});
