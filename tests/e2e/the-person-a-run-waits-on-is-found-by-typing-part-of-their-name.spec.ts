import type { Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";

/**
 * The approver's search box: the input the page's script makes. Until the script runs the question is
 * a select, a combobox of the same name, which takes no typing.
 */
const approverBox = (page: Page) => page.locator("input").and(page.getByRole("combobox", { name: "Who approves it?" }));

test("an operator finds the approver by typing part of their name and picks them with the keyboard", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  await page.goto("/runs?start=DeployApproval");
  const approver = approverBox(page);
  await approver.fill("priya SH");
  // Only the people whose name holds every word typed are offered (other tests add people too).
  const offered = page.getByRole("listbox").getByRole("option");
  await expect(offered.filter({ hasText: people.otherAssignee.name })).not.toHaveCount(0);
  await expect(offered.filter({ hasText: people.assignee.name })).toHaveCount(0);
  for (const text of await offered.allTextContents()) expect(text.toLowerCase()).toMatch(/priya.*sh|sh.*priya/);
  // The arrow keys walk the list and Enter picks: the first offered is the one taken.
  const first = (await offered.first().textContent())!.replace(/ \(chosen\)$/, "");
  await approver.press("ArrowDown");
  await approver.press("Enter");
  await expect(approver).toHaveValue(first);

  // What the form sends is the person's id, never the words in the box.
  await expect(page.locator('input[type="hidden"][name="approverId"]')).toHaveValue(/^[0-9a-f-]{36}$/);
  await page.context().close();
});

test("typing over a chosen person unchooses them, so only someone picked from the list is ever sent", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  await page.goto("/runs?start=DeployApproval");
  const approver = approverBox(page);
  await approver.fill("sam");
  await page.getByRole("option", { name: people.assignee.name, exact: true }).click();
  await expect(approver).toHaveValue(people.assignee.name);
  await approver.fill("nobody by this name");
  await expect(page.getByRole("status").filter({ hasText: "Nothing matches “nobody by this name”." })).toBeVisible();
  await expect(page.locator('input[type="hidden"][name="approverId"]')).toHaveValue("");
  await page.context().close();
});
