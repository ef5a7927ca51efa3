import { expect, people, signedInPage, test } from "./fixtures";
import { GroupsPage } from "./pages/groups-page";
import { uniqueTitle } from "./pages/runs-page";

test("an admin deletes a group from its page after a step to confirm, and is back on a list without it", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const group = uniqueTitle("temp").toLowerCase().replaceAll(" ", "-");
  const groups = new GroupsPage(admin);
  await groups.goto();
  await groups.createGroup(group);
  await groups.open(group);
  await expect(admin.getByRole("button", { name: `Yes, delete ${group}` })).toBeHidden();
  await admin.getByText(`Delete ${group}…`).click();
  await admin.getByRole("button", { name: `Yes, delete ${group}` }).click();
  await expect(admin).toHaveURL(/\/admin\/groups$/);
  await expect(admin.getByRole("heading", { name: "Groups", level: 1 })).toBeVisible();
  await expect(groups.card(group)).toHaveCount(0);
  await admin.context().close();
});
