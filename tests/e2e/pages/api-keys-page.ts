import { expect, type Page } from "@playwright/test";

/**
 * A page that makes and revokes keys: the admins' API keys page (agent keys) or a person's profile
 * (their tokens for the terminal). Both share one form and one table.
 */
export class ApiKeysPage {
  constructor(
    readonly page: Page,
    readonly path: "/admin/api-keys" | "/profile",
  ) {}

  async goto() {
    await this.page.goto(this.path);
  }

  get name() {
    return this.page.getByLabel("Name", { exact: true });
  }

  /** Makes a key called `name` with the page's form. */
  async create(name: string) {
    await this.name.fill(name);
    await this.page.getByRole("button", { name: this.path === "/profile" ? "Create token" : "Create key" }).click();
  }

  /** The panel that shows a new key's secret, the once. */
  get created() {
    return this.page.locator("section.key-created");
  }

  /** The secret shown in the created panel. */
  get newSecret() {
    return this.created.getByTestId("api-key-secret");
  }

  /** The table's row for the key called `name`. */
  row(name: string) {
    return this.page.getByTestId("api-key-row").filter({ has: this.page.locator("td.key-name", { hasText: name }) });
  }

  /** Revokes the key called `name` and waits until its row says so. */
  async revoke(name: string) {
    await this.row(name).getByRole("button", { name: `Revoke “${name}”` }).click();
    await expect(this.row(name)).toContainText("Revoked");
  }
}
