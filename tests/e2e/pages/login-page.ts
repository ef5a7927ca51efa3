import { expect, type Page } from "@playwright/test";
import type { DemoUser } from "@/lib/demo-people";

/** The sign-in page, as a person uses it. */
export class LoginPage {
  constructor(readonly page: Page) {}

  async goto(path = "/login") {
    await this.page.goto(path);
  }

  get email() {
    return this.page.getByLabel("Email");
  }

  get password() {
    return this.page.getByLabel("Password");
  }

  /** Next's route announcer is an empty alert too: only alerts with text count. */
  get error() {
    return this.page.getByRole("alert").filter({ hasText: /./ });
  }

  async signIn(email: string, password: string) {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }

  /** Signs in and waits until the signed-in layout shows the person's name. */
  async signInAs(user: DemoUser) {
    await this.goto();
    await this.signIn(user.email, user.password);
    await expect(this.page.getByTestId("user-name")).toHaveText(user.name);
  }
}
