import { expect, people, signedInPage, test } from "./fixtures";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";
import { makeAgentKey } from "./support/agent-key";

test("an admin marks someone away on their page and names Sam to take their questions: an agent's ask to them goes to Sam", async ({ browser, request }) => {
  test.setTimeout(90_000);
  const name = uniqueTitle("Rosa Lind");
  const email = uniqueEmail("rosa");
  const admin = await signedInPage(browser, people.admin);
  const list = new PeoplePage(admin);
  await list.goto();
  await list.addPerson({ name, email });
  await list.open(name);

  const away = admin.getByRole("region", { name: "Away" });
  await away.getByRole("button", { name: `Mark away: ${name}` }).click();
  await expect(away.getByRole("button", { name: `Mark back: ${name}` })).toBeVisible();
  await away.getByLabel(`While ${name} is away, their new questions go to`).selectOption({ label: people.assignee.name });
  await away.getByRole("button", { name: "Save" }).click();
  await expect(away.getByRole("status")).toContainText(`while ${name} is away, their new questions go to the person named`);
  // Recorded on their history, with who did it.
  await expect(admin.getByTestId("person-history")).toContainText(`${people.admin.name}`);
  await admin.context().close();

  const key = await makeAgentKey(browser, `Venue bot ${Date.now()}`);
  const title = uniqueTitle("Sign off the venue deposit?");
  const created = await request.post("/api/v1/asks", { headers: { authorization: `Bearer ${key.secret}` }, data: { to: email, title } });
  expect(created.status()).toBe(201);
  const sam = await signedInPage(browser, people.assignee);
  await sam.goto("/inbox?view=assigned");
  await expect(sam.getByTestId("inbox-row").filter({ hasText: title })).toContainText(`For ${name}, who is away: delegated to you`);
  await sam.context().close();
});
