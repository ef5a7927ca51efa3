import type { Page } from "@playwright/test";

/** A question as the person it was put to sees it. */
export class QuestionPage {
  constructor(readonly page: Page) {}

  /** Opens the question about `claimTitle` from the inbox. */
  async openFromInbox(claimTitle: string) {
    await this.page.goto("/inbox?view=assigned");
    await this.page.getByTestId("inbox-row").filter({ hasText: claimTitle }).getByRole("link").click();
    await this.page.waitForURL(/\/questions\//);
  }

  get answer() {
    return this.page.getByRole("textbox").first();
  }

  async send() {
    await this.page.getByRole("button", { name: "Send answer" }).click();
  }

  get runState() {
    return this.page.getByTestId("run-state");
  }
}
