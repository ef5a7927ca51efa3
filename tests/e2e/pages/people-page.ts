import { expect, type Page } from "@playwright/test";

/** The admins' People page and a person's page, as an admin uses them. */
export class PeoplePage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/admin/people");
    await expect(this.page.getByRole("heading", { name: "People", level: 1 })).toBeVisible();
  }

  get addForm() {
    return this.page.getByRole("form", { name: "Add a person" });
  }

  /** Adds a person with the page's form and returns the invite link it shows, the once. */
  async addPerson(person: { name: string; email: string; roles?: string[]; groups?: string[] }): Promise<string> {
    const form = this.addForm;
    await form.getByLabel("Name").fill(person.name);
    await form.getByLabel("Email").fill(person.email);
    for (const role of ["Assignee", "Operator", "Admin"]) {
      const box = form.getByRole("checkbox", { name: role });
      if ((person.roles ?? ["Assignee"]).includes(role)) await box.check();
      else await box.uncheck();
    }
    for (const group of person.groups ?? []) await form.getByRole("checkbox", { name: group, exact: true }).check();
    await form.getByRole("button", { name: "Add and make an invite link" }).click();
    await expect(this.page.getByTestId("invite-created")).toContainText(`Invite link for ${person.name}`);
    return (await this.page.getByTestId("invite-link").textContent())!.trim();
  }

  /** The list's row for the person called `name`. */
  row(name: string) {
    return this.page.getByTestId("person-row").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  /** Opens a person's page from the list. */
  async open(name: string) {
    await this.row(name).getByRole("link", { name, exact: true }).click();
    await expect(this.page.getByRole("heading", { name, level: 1 })).toBeVisible();
  }
}

/** An address no demo person has, for someone added in a test. */
export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
}
