import { expect, type Page } from "@playwright/test";

/** `text` matched literally inside a regular expression. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Admin → Groups and one group's page, as an admin uses them. */
export class GroupsPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/admin/groups");
    await expect(this.page.getByRole("heading", { name: "Groups", level: 1 })).toBeVisible();
  }

  /** Makes a group with the page's form (the page must be open). */
  async createGroup(name: string) {
    const form = this.page.getByRole("form", { name: "New group" });
    await form.getByLabel("Name").fill(name);
    await form.getByRole("button", { name: "Create group" }).click();
    await expect(form.getByRole("status")).toContainText(`Group “${name}” created.`);
  }

  /** The card of the group called `name`. */
  card(name: string) {
    return this.page.getByTestId("group").filter({ has: this.page.getByRole("heading", { name: new RegExp(`^${literal(name)} ·`) }) });
  }

  /** The one search for people to add: the text, the group (when the page offers a choice), then Find people. */
  async findPeople(text: string, group?: string) {
    const search = this.page.getByRole("search", { name: "Find people to add" });
    await search.getByLabel("Name or email").fill(text);
    if (group) await search.getByLabel("Group").selectOption({ label: group });
    await search.getByRole("button", { name: "Find people" }).click();
    await expect(this.page.getByRole("search", { name: "Find people to add" }).getByLabel("Name or email")).toHaveValue(text);
  }

  /** The search's result row for the person called `name`. */
  found(name: string) {
    return this.page.getByTestId("person-found").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  /** Opens a group's own page from its card. */
  async open(name: string) {
    await this.card(name).getByRole("link", { name: new RegExp(` ${literal(name)}$`) }).click();
    await expect(this.page.getByRole("heading", { name, level: 1 })).toBeVisible();
  }

  /** A row of the members table on a group's page, for the person called `name`. */
  member(name: string) {
    return this.page.getByTestId("group-member").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }
}

/**
 * The groups pages with people found to add: the shared search with a group chosen, and a group's
 * own page with its members and a search (the demo's finance group).
 */
export async function groupPagesToLookAt(page: Page): Promise<string[]> {
  await page.goto("/admin/groups");
  const finance = (await page.getByRole("link", { name: "Manage finance", exact: true }).getAttribute("href"))!;
  const groupId = finance.split("/").at(-1)!;
  return [`/admin/groups?q=a&group=${groupId}`, `${finance}?q=a`];
}
