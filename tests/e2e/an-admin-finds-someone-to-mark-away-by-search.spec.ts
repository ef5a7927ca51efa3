import { expect, people, signedInPage, test } from "./fixtures";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";

// The admin page lists people a page at a time (a big organisation would not fit on one), so someone
// not on the first page is found by name or email there, and marked away and back in their row.
test("an admin finds someone on the admin page by their email and marks them away and back", async ({ browser }) => {
  const name = uniqueTitle("Zoe Whitfield");
  const email = uniqueEmail("zoe");
  const admin = await signedInPage(browser, people.admin);
  await new PeoplePage(admin).goto();
  await new PeoplePage(admin).addPerson({ name, email });

  await admin.goto("/admin");
  await admin.getByLabel("Find someone to mark away or back, by name or email").fill(email);
  await admin.getByRole("search", { name: "Find people" }).getByRole("button", { name: "Search" }).click();
  await expect(admin).toHaveURL(/[?&]q=/);
  await expect(admin.getByRole("table", { name: "People" }).getByRole("row")).toHaveCount(2);
  const row = admin.getByTestId(`person-${email}`);
  await row.getByRole("button", { name: `Mark away: ${name}` }).click();
  await expect(row).toContainText("Away");
  await row.getByRole("button", { name: `Mark back: ${name}` }).click();
  await expect(row.getByRole("button", { name: `Mark away: ${name}` })).toBeVisible();
  await admin.context().close();
});
