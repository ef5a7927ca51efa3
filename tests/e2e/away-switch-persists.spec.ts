import { expect, people, signedInPage, test } from "./fixtures";

test("the away switch stays on across a reload and a new sign-in, and turns off again", async ({ browser }) => {
  const user = people.assigneeAndOperator;
  const page = await signedInPage(browser, user);
  const away = page.getByRole("switch", { name: "Away" });
  await expect(away).toHaveAttribute("aria-checked", "false");

  await away.click();
  await expect(away).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("status")).toContainText("You are marked away");
  await page.reload();
  await expect(away).toHaveAttribute("aria-checked", "true");

  const again = await signedInPage(browser, user);
  await expect(again.getByRole("switch", { name: "Away" })).toHaveAttribute("aria-checked", "true");

  await away.click();
  await expect(away).toHaveAttribute("aria-checked", "false");
  await page.reload();
  await expect(away).toHaveAttribute("aria-checked", "false");
  await expect(page.getByText("You are marked away")).toHaveCount(0);

  await page.context().close();
  await again.context().close();
});
