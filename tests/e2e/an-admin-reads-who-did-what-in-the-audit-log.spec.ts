import { readFile } from "node:fs/promises";
import { expect, people, signedInPage, test } from "./fixtures";

test("an admin finds what they just did among the newest lines of the audit log, narrows it to themselves, and downloads it as CSV", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const name = `audited-${Date.now().toString(36)}`;
  await admin.goto("/admin/groups");
  await admin.getByLabel("Name", { exact: true }).fill(name);
  await admin.getByRole("button", { name: "Create group" }).click();
  await expect(admin.getByRole("status").filter({ hasText: name })).toBeVisible();

  await admin.goto("/admin/audit");
  // Among the newest lines (other tests act too): who made it, and a link to the group.
  const made = admin.getByTestId("audit-line").filter({ hasText: `Ada Admin made the group ${name}` });
  await expect(made).toHaveCount(1);
  await expect(made.getByRole("link", { name: `the group ${name}` })).toHaveAttribute("href", /^\/admin\/groups\/[0-9a-f-]{36}$/);

  // Narrowed to one person's changes to people and groups: every line is theirs.
  await admin.getByLabel("What").selectOption({ label: "People and groups" });
  await admin.getByLabel("Who").fill("ada@parley.test");
  await admin.getByRole("button", { name: "Filter" }).click();
  await expect(admin).toHaveURL(/category=people/);
  const lines = admin.getByTestId("audit-line");
  await expect(lines.filter({ hasText: name })).toHaveCount(1);
  for (const text of await lines.allTextContents()) expect(text).toContain("Ada Admin");

  const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: "Download CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^parley-audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const rows = (await readFile((await download.path())!, "utf8")).trimEnd().split("\r\n");
  expect(rows[0]).toBe("at,actor_kind,actor,action,verb,subject,detail,task_id,question_id,person_id,group_id,api_key_id,line_id");
  expect(rows.filter((row) => row.includes(name))).toEqual([expect.stringMatching(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[^,]+,person,Ada Admin,group-created,made,the group ${name},,,,,[0-9a-f-]{36},,\\d+$`))]);
  expect(rows.length - 1).toBeGreaterThanOrEqual(await lines.count());
  await admin.context().close();
});

test("an admin who filters by a name nobody has is told so, and shown no lines", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin/audit?who=nobody-here%40parley.test");
  await expect(admin.getByTestId("audit-filter-problem")).toHaveText("Nobody’s email or name matches “nobody-here@parley.test”.");
  await expect(admin.getByTestId("audit-line")).toHaveCount(0);
  await admin.context().close();
});
