import { expect, ON_POSTGRES, people, test } from "./fixtures";

test(ON_POSTGRES ? "a DATABASE_URL server shows no demo passwords" : "the embedded demo shows its demo sign-ins", async ({ page }) => {
  await page.goto("/login");
  const demo = page.getByRole("region", { name: "Demo sign-ins" });
  if (ON_POSTGRES) {
    await expect(demo).toHaveCount(0);
    await expect(page.getByText(people.admin.password)).toHaveCount(0);
  } else {
    await expect(demo).toContainText(people.admin.email);
    await expect(demo).toContainText(people.admin.password);
  }
});
