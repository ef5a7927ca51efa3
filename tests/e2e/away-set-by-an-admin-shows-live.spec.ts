import { expect, people, signedInPage, test } from "./fixtures";

test("when an admin marks someone away, that person's open page shows it without a reload", async ({ browser }) => {
  const person = people.otherAssignee;
  const personPage = await signedInPage(browser, person);
  await personPage.goto("/inbox");
  const theirSwitch = personPage.getByRole("switch", { name: "Away" });
  await expect(theirSwitch).toHaveAttribute("aria-checked", "false");
  // Marks the page so that a reload (which would also show the change) is caught.
  await personPage.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin");
  const row = admin.getByTestId(`person-${person.email}`);
  await row.getByRole("button", { name: `Mark away: ${person.name}` }).click();
  await expect(row).toContainText("Away");

  await expect(theirSwitch).toHaveAttribute("aria-checked", "true");
  await expect(personPage.getByRole("status")).toContainText("You are marked away");
  expect(await personPage.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  await row.getByRole("button", { name: `Mark back: ${person.name}` }).click();
  await expect(theirSwitch).toHaveAttribute("aria-checked", "false");

  await personPage.context().close();
  await admin.context().close();
});

test("the live event stream refuses a visitor who is not signed in", async ({ request }) => {
  const response = await request.get("/api/events");
  expect(response.status()).toBe(401);
});
