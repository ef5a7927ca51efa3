import { expect, people, signedInPage, test } from "./fixtures";

const cases = [
  { user: people.assignee, links: ["Inbox"] },
  { user: people.operator, links: ["Runs"] },
  { user: people.admin, links: ["Runs", "Admin"] },
  { user: people.assigneeAndOperator, links: ["Inbox", "Runs"] },
];

for (const { user, links } of cases) {
  const answers = user.roles.includes("assignee");
  test(`${user.roles.join(" and ")} sees ${links.join(", ")} in the navigation, and ${answers ? "an" : "no"} Away switch`, async ({ browser }) => {
    const page = await signedInPage(browser, user);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(links);
    // Away is for people who are asked questions: someone who never is has nothing to be away from.
    await expect(page.getByRole("switch", { name: "Away" })).toHaveCount(answers ? 1 : 0);
    await page.context().close();
  });
}
