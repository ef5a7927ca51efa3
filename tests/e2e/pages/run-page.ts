import type { Page } from "@playwright/test";

/** A run as operators watch it (/tasks/[id]). */
export class RunPage {
  constructor(readonly page: Page) {}

  /** Opens the run whose title mentions `title` (a claim's title…) from the Runs list. */
  async openFromRuns(title: string) {
    await this.page.goto("/runs");
    await this.page.getByTestId("run-row").filter({ hasText: title }).getByRole("link", { name: title }).click();
    await this.page.waitForURL(/\/tasks\/[0-9a-f-]{36}$/);
  }

  /** The run's status line: status badge, state, whom it waits on. */
  get status() {
    return this.page.getByTestId("run-status");
  }

  /** Every line of the run, oldest first. */
  get entries() {
    return this.page.getByTestId("run-entry");
  }

  /** The lines of one kind (turn, question, answer, slot-opened, state, nothing, failed, completed…). */
  entriesOf(kind: string) {
    return this.page.locator(`[data-testid="run-entry"][data-kind="${kind}"]`);
  }

  /** The kinds of the lines in order. */
  async kinds(): Promise<string[]> {
    return this.entries.evaluateAll((items) => items.map((item) => item.getAttribute("data-kind") ?? ""));
  }

  /** The workflow's context beside the run: its facts (the claim, the Auditor's decision once made…). */
  get context() {
    return this.page.getByRole("complementary", { name: "Context" });
  }

  get graph() {
    return this.page.getByRole("region", { name: "Who handed to whom" });
  }

  /** The link to the page of events before those shown ("Show 50 older events"). */
  get olderEvents() {
    return this.page.getByTestId("older-events");
  }

  /** The way back from older events to the latest. */
  get latestEvents() {
    return this.page.getByTestId("latest-events");
  }
}
