import { expect, people, signedInPage, test } from "./fixtures";

const cases = [
  { user: people.assignee, links: ["Inbox"] },
  { user: people.operator, links: ["Runs"] },
  { user: people.admin, links: ["Runs", "Admin"] },
  { user: people.assigneeAndOperator, links: ["Inbox", "Runs"] },
];

for (const { user, links } of cases) {
  test(`${user.roles.join(" and ")} sees ${links.join(", ")} in the navigation`, async ({ browser }) => {
    const page = await signedInPage(browser, user);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(links);
    await page.context().close();
  });
}
