import { expect, people, signedInPage, test } from "./fixtures";
import { GroupsPage } from "./pages/groups-page";
import { LoginPage } from "./pages/login-page";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";

test("with JavaScript off, an admin searches for a person and adds them to a group", async ({ browser }) => {
  const name = uniqueTitle("Ines Moreau");
  const group = uniqueTitle("legal").toLowerCase().replaceAll(" ", "-");
  const setup = await signedInPage(browser, people.admin);
  await new PeoplePage(setup).goto();
  await new PeoplePage(setup).addPerson({ name, email: uniqueEmail("ines") });
  await new GroupsPage(setup).goto();
  await new GroupsPage(setup).createGroup(group);
  await setup.context().close();

  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await new LoginPage(page).signInAs(people.admin);
  const groups = new GroupsPage(page);
  await groups.goto();
  await groups.findPeople(name, group);
  await expect(page).toHaveURL(/[?&]q=/);
  await groups.found(name).getByRole("button", { name: `Add ${name} to ${group}` }).click();
  await expect(groups.found(name).getByRole("status")).toHaveText(`${name} added to ${group}.`);
  await expect(groups.card(group).getByTestId("group-members")).toContainText(name);
  await context.close();
});
