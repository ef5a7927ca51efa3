import { expect, people, signedInPage, test } from "./fixtures";
import { GroupsPage } from "./pages/groups-page";
import { uniqueTitle } from "./pages/runs-page";

test("an admin renames a group on its page: the name is trimmed and lower-cased, and the page and the list show it", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const group = uniqueTitle("ledger").toLowerCase().replaceAll(" ", "-");
  const groups = new GroupsPage(admin);
  await groups.goto();
  await groups.createGroup(group);
  await groups.open(group);
  await admin.getByText(`Rename ${group}`).click();
  await admin.getByLabel("New name").fill(`  ${group.toUpperCase()}-Payables `);
  await admin.getByRole("button", { name: "Rename" }).click();
  await expect(admin.getByRole("status")).toContainText(`the group is called “${group}-payables” now`);
  await expect(admin.getByRole("heading", { name: `${group}-payables`, level: 1 })).toBeVisible();
  await groups.goto();
  await expect(groups.card(`${group}-payables`)).toHaveCount(1);
  await admin.context().close();
});
