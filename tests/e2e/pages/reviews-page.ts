import { expect, type Page } from "@playwright/test";

/** A claim as the start-review form takes it. */
export interface ClaimFields {
  title: string;
  merchant: string;
  amount: string;
  incurredOn: string;
  assignee: string;
  description?: string;
  currency?: string;
}

/** The operators' reviews page. */
export class ReviewsPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto("/reviews");
  }

  async fill(claim: ClaimFields) {
    const form = this.page.locator("form.start-review");
    if (!(await form.isVisible())) await this.page.getByText("Start a review").click();
    await this.page.getByLabel("Title").fill(claim.title);
    await this.page.getByLabel("Merchant").fill(claim.merchant);
    await this.page.getByLabel("Amount").fill(claim.amount);
    if (claim.currency !== undefined) await this.page.getByLabel("Currency").fill(claim.currency);
    await this.page.getByLabel("Date of the charge").fill(claim.incurredOn);
    await this.page.getByLabel("Who answers the Auditor").selectOption({ label: claim.assignee });
    if (claim.description !== undefined) await this.page.getByLabel("Description (optional)").fill(claim.description);
  }

  /** Starts a review and waits until the page says it started. */
  async startReview(claim: ClaimFields) {
    await this.goto();
    await this.fill(claim);
    await this.page.getByRole("button", { name: "Start review" }).click();
    await expect(this.page.getByRole("status").filter({ hasText: `Review of “${claim.title}” started` })).toBeVisible();
  }
}

/** A claim title no other test uses, so tests can run against one shared server. */
export function uniqueTitle(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
