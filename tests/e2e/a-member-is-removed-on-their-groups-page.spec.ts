import { expect, people, signedInPage, test } from "./fixtures";
import { GroupsPage } from "./pages/groups-page";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";

test("an admin removes a member on their group's page, and the group no longer lists them", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const group = uniqueTitle("payroll").toLowerCase().replaceAll(" ", "-");
  const groups = new GroupsPage(admin);
  await groups.goto();
  await groups.createGroup(group);
  const name = uniqueTitle("Mei Tanaka");
  await new PeoplePage(admin).goto();
  await new PeoplePage(admin).addPerson({ name, email: uniqueEmail("mei"), groups: [group] });

  await groups.goto();
  await groups.open(group);
  await expect(admin.getByText("1 member.", { exact: false })).toBeVisible();
  await groups.member(name).getByRole("button", { name: `Remove ${name} from ${group}` }).click();
  await expect(groups.member(name)).toHaveCount(0);
  await expect(admin.getByText("No members yet.")).toBeVisible();
  await admin.context().close();
});
