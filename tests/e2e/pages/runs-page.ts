import { expect, type Page } from "@playwright/test";

/**
 * Chooses `name` for a start form's question about a person: found by typing in the search box the
 * page's script makes; without it, a radio up to seven people and a select beyond — the tests share
 * one server, where other tests add people.
 */
export async function choosePerson(page: Page, question: string | RegExp, name: string): Promise<void> {
  const box = page.getByRole("combobox", { name: question });
  // A person is found by typing once the page's script runs (until then, and without it, they are listed).
  await box.waitFor({ timeout: 5_000 }).catch(() => undefined);
  if ((await box.count()) === 0) return page.getByRole("group", { name: question }).getByRole("radio", { name, exact: true }).check();
  // A searchable choice is a box to type in and a list to pick from; a long plain one is a select.
  if ((await box.evaluate((element) => element.tagName)) === "SELECT") return void (await box.selectOption({ label: name }));
  await box.fill(name);
  await page.getByRole("option", { name, exact: true }).click();
  await expect(box).toHaveValue(name);
}

/** Whether `name` is the person chosen for a start form's question (a checked radio, or the select's option). */
export async function expectPersonChosen(page: Page, question: string | RegExp, name: string): Promise<void> {
  const box = page.getByRole("combobox", { name: question });
  if ((await box.count()) === 0) await expect(page.getByRole("group", { name: question }).getByRole("radio", { name, exact: true })).toBeChecked();
  else if ((await box.evaluate((element) => element.tagName)) === "SELECT") await expect(box.locator("option:checked")).toHaveText(name);
  else await expect(box).toHaveValue(name);
}

/** A claim as the expense review's generated start form takes it. */
export interface ClaimFields {
  title: string;
  merchant: string;
  amount: string;
  incurredOn: string;
  assignee: string;
  description?: string;
  currency?: string;
}

/** The operators' Runs page: every registered workflow's runs, and the start forms generated from their start schemas. */
export class RunsPage {
  constructor(readonly page: Page) {}

  /** Opens the list (optionally filtered, e.g. `?state=waiting`). */
  async goto(query = "") {
    await this.page.goto(`/runs${query}`);
  }

  /** Opens the list with `workflow`'s start form (by its registered name, e.g. "ReviewClaim"). */
  async gotoStart(workflow: string) {
    await this.page.goto(`/runs?start=${workflow}`);
    await expect(this.page.locator("form.question-form")).toBeVisible();
  }

  /** Every run in the list. */
  get rows() {
    return this.page.getByTestId("run-row");
  }

  /** The runs whose row mentions `text` (a claim's title, a service…). */
  row(text: string) {
    return this.rows.filter({ hasText: text });
  }

  /** What the new run's page says after a start, where the start form leads. */
  started(subject: string) {
    return this.page.getByRole("status").filter({ hasText: `Started “${subject}”` });
  }

  /** Fills the expense review's start form (opening it first). */
  async fillClaim(claim: ClaimFields) {
    await this.gotoStart("ReviewClaim");
    await this.page.getByLabel("Title").fill(claim.title);
    await this.page.getByLabel("Merchant").fill(claim.merchant);
    await this.page.getByLabel("Amount").fill(claim.amount);
    if (claim.currency !== undefined) await this.page.getByLabel("Currency").fill(claim.currency);
    await this.page.getByLabel("Date of the charge").fill(claim.incurredOn);
    await choosePerson(this.page, /Who answers the Auditor/, claim.assignee);
    if (claim.description !== undefined) await this.page.getByLabel("Description (optional)").fill(claim.description);
  }

  /** Starts an expense review from its generated form and waits for its run's page to say it started. */
  async startReview(claim: ClaimFields) {
    await this.fillClaim(claim);
    await this.page.getByRole("button", { name: "Start review" }).click();
    await expect(this.started(`Claim: ${claim.title}`)).toBeVisible();
  }
}

/** A title no other test uses, so tests can run against one shared server. */
export function uniqueTitle(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
