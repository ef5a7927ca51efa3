import { expect, people, signedInPage, test } from "./fixtures";

test("every signed-in page says when agents run on the scripted model", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  await expect(page.getByTestId("model-badge")).toHaveText("Scripted model (no model configured)");
  await page.goto("/runs");
  await expect(page.getByTestId("model-badge")).toHaveAttribute("title", /fixed script/);
  await page.context().close();
});
