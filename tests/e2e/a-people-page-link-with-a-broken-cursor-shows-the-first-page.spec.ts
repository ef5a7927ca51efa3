import { expect, people, signedInPage, test } from "./fixtures";
import { PeoplePage } from "./pages/people-page";

for (const after of ["not-a-person", "00000000-0000-4000-8000-000000000000"]) {
  test(`a People link after ${after} shows the first page and says so`, async ({ browser }) => {
    const admin = await signedInPage(browser, people.admin);
    const response = await admin.goto(`/admin/people?after=${after}`);
    expect(response?.status()).toBe(200);
    await expect(admin.getByRole("status").filter({ hasText: "That page of people could not be found, so this is the first page." })).toBeVisible();
    await expect(new PeoplePage(admin).row(people.admin.name)).toBeVisible();
    await admin.context().close();
  });
}
