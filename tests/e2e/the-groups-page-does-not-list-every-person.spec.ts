import { expect, people, signedInPage, test } from "./fixtures";
import { GroupsPage } from "./pages/groups-page";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";

test("the groups page names nobody who is in no group until a search finds them", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const name = uniqueTitle("Kofi Mensah");
  const email = uniqueEmail("kofi");
  await new PeoplePage(admin).goto();
  await new PeoplePage(admin).addPerson({ name, email });

  const html = await (await admin.request.get("/admin/groups")).text();
  expect(html.includes(email), "the groups page names someone who is in no group, by email").toBe(false);
  expect(html.includes(name), "the groups page names someone who is in no group, by name").toBe(false);
  const groups = new GroupsPage(admin);
  await groups.goto();
  await expect(admin.getByRole("option", { name: new RegExp(people.assignee.name) })).toHaveCount(0);
  await groups.findPeople(email);
  await expect(groups.found(name)).toBeVisible();
  await admin.context().close();
});
