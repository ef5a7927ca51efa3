import { expect, people, signedInPage, test } from "./fixtures";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey } from "./support/agent-keys";

test("an admin ticks a person's open waits on their page and reassigns them all to someone found by name at once", async ({ browser, baseURL }) => {
  const admin = await signedInPage(browser, people.admin);
  const peoplePage = new PeoplePage(admin);
  await peoplePage.goto();
  // A person of this test's own, with two questions waiting on them.
  const name = uniqueTitle("Wes Waiting");
  const email = uniqueEmail("wes");
  await peoplePage.addPerson({ name, email });
  const parley = clientFor(baseURL!, await makeAgentKey(browser, "Bulk test bot"));
  const titles = [uniqueTitle("Approve the first refund?"), uniqueTitle("Approve the second refund?")];
  for (const title of titles) await parley.createAsk({ to: email, title });

  await peoplePage.goto();
  await peoplePage.open(name);
  const waits = admin.getByTestId("person-open-waits");
  for (const title of titles) await expect(waits).toContainText(title);
  for (const title of titles) await admin.getByRole("checkbox", { name: `Tick “${title}”` }).check();
  // Found by part of their name: picking them fills in their email.
  const reassignTo = admin.getByRole("combobox", { name: "or reassign them to" });
  await reassignTo.fill(people.otherAssignee.name.split(" ")[0]!.toLowerCase());
  await admin.getByRole("option", { name: `${people.otherAssignee.name} — ${people.otherAssignee.email}` }).click();
  await expect(reassignTo).toHaveValue(people.otherAssignee.email);
  await admin.getByRole("button", { name: "Reassign them" }).click();

  await expect(admin.getByTestId("bulk-outcome")).toHaveText(`2 waits were reassigned to ${people.otherAssignee.name}.`);
  await admin.reload();
  await expect(admin.getByText(`Nothing is waiting on ${name}.`)).toBeVisible();
  await admin.context().close();
});
