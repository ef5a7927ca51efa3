import { expect, people, signedInPage, test } from "./fixtures";
import { uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey } from "./support/agent-keys";

test("a person chooses comfortable rows, their inbox keeps them across a reload, and compact brings the dense list back", async ({ browser, baseURL }) => {
  // A question of this test's own in the inbox, whatever else is there.
  const parley = clientFor(baseURL!, await makeAgentKey(browser, "Rows test bot"));
  await parley.createAsk({ to: people.assignee.email, title: uniqueTitle("A question with a title long enough to wrap when rows are comfortable") });
  const page = await signedInPage(browser, people.assignee);
  await page.goto("/inbox");
  const rows = page.getByRole("form", { name: "Rows" });
  await expect(rows.getByRole("button", { name: "Compact" })).toHaveAttribute("aria-pressed", "true");
  const firstRow = page.locator(".inbox-row").first();
  await expect(firstRow).toBeVisible();
  const compactHeight = (await firstRow.boundingBox())!.height;

  await rows.getByRole("button", { name: "Comfortable" }).click();
  await expect(rows.getByRole("button", { name: "Comfortable" })).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(rows.getByRole("button", { name: "Comfortable" })).toHaveAttribute("aria-pressed", "true");
  expect((await firstRow.boundingBox())!.height).toBeGreaterThan(compactHeight);

  await rows.getByRole("button", { name: "Compact" }).click();
  await expect(rows.getByRole("button", { name: "Compact" })).toHaveAttribute("aria-pressed", "true");
  await expect.poll(async () => (await firstRow.boundingBox())!.height).toBe(compactHeight);
  await page.context().close();
});
