import { expect, people, signedInPage, test } from "./fixtures";
import { GroupsPage } from "./pages/groups-page";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";

test("an admin finds a person by part of their name and adds them to a chosen group", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const name = uniqueTitle("Noor Haddad");
  await new PeoplePage(admin).goto();
  await new PeoplePage(admin).addPerson({ name, email: uniqueEmail("noor") });
  const groups = new GroupsPage(admin);
  const group = uniqueTitle("audit").toLowerCase().replaceAll(" ", "-");
  await groups.goto();
  await groups.createGroup(group);

  await groups.findPeople(name.slice(0, -2), group);
  await groups.found(name).getByRole("button", { name: `Add ${name} to ${group}` }).click();
  await expect(groups.found(name).getByRole("status")).toHaveText(`${name} added to ${group}.`);
  await expect(groups.card(group).getByTestId("group-members")).toContainText(name);
  await admin.context().close();
});
