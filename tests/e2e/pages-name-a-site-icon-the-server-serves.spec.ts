import { expect, test } from "./fixtures";

test("the pages name a site icon, and the server serves it (no 404 for the browser's tab icon)", async ({ page, loginPage }) => {
  await loginPage.goto();
  const link = page.locator('link[rel="icon"]');
  await expect(link).toHaveAttribute("href", /\S/);
  const icon = await page.request.get((await link.getAttribute("href"))!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
});
