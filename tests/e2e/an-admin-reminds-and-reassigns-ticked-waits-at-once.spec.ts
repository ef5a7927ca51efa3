import type { Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

/** Omar starts one review for Sam per merchant; returns the admin on the SLA page with each wait listed. */
async function waitsOnTheSlaPage(browser: Parameters<typeof signedInPage>[0], merchants: string[]): Promise<Page> {
  const operator = await signedInPage(browser, people.operator);
  for (const merchant of merchants) {
    await new RunsPage(operator).startReview({ title: uniqueTitle("Bulk"), merchant, amount: "58.00", incurredOn: "2026-11-18", assignee: people.assignee.name });
  }
  await operator.context().close();
  const admin = await signedInPage(browser, people.admin);
  await expect(async () => {
    await admin.goto("/admin/sla");
    for (const merchant of merchants) await expect(admin.getByTestId("open-slot").filter({ hasText: merchant })).toHaveCount(1, { timeout: 1_000 });
  }).toPass();
  return admin;
}

test("an admin ticks two waits on the SLA page and reassigns both to one person by email", async ({ browser }) => {
  const merchants = [uniqueTitle("Alpine Rail"), uniqueTitle("Fjord Ferries")];
  const admin = await waitsOnTheSlaPage(browser, merchants);
  for (const merchant of merchants) await admin.getByTestId("open-slot").filter({ hasText: merchant }).getByRole("checkbox").check();
  const bulk = admin.getByRole("form", { name: "The ticked waits" });
  await bulk.getByRole("combobox", { name: "or reassign them to" }).fill(people.assigneeAndOperator.email);
  await bulk.getByRole("button", { name: "Reassign them" }).click();
  await expect(bulk.getByTestId("bulk-outcome")).toHaveText(`2 waits were reassigned to ${people.assigneeAndOperator.name}.`);
  for (const merchant of merchants) {
    await expect(admin.getByTestId("open-slot").filter({ hasText: merchant }).getByTestId("waiting-on")).toHaveText(people.assigneeAndOperator.name);
  }
  await admin.context().close();
});

test("an admin ticks a wait and reminds whoever it waits on; an email that is nobody's is refused on its field", async ({ browser }) => {
  const merchant = uniqueTitle("Harbour Lights");
  const admin = await waitsOnTheSlaPage(browser, [merchant]);
  const row = admin.getByTestId("open-slot").filter({ hasText: merchant });
  await row.getByRole("checkbox").check();
  const bulk = admin.getByRole("form", { name: "The ticked waits" });
  await bulk.getByRole("button", { name: "Remind them" }).click();
  await expect(bulk.getByTestId("bulk-outcome")).toHaveText(`Reminded ${people.assignee.name} about 1 wait.`);
  // Done, the ticks are cleared, as after any action on a selection.
  await expect(row.getByRole("checkbox")).not.toBeChecked();

  await row.getByRole("checkbox").check();
  await bulk.getByRole("combobox", { name: "or reassign them to" }).fill("nobody-at-all@parley.test");
  await bulk.getByRole("button", { name: "Reassign them" }).click();
  await expect(bulk.getByRole("alert")).toHaveText("Nobody who answers questions has this email: check it on Admin → People.");
  // Refused, nothing typed or ticked is lost.
  await expect(row.getByRole("checkbox")).toBeChecked();
  await expect(bulk.getByRole("combobox", { name: "or reassign them to" })).toHaveValue("nobody-at-all@parley.test");
  await expect(row.getByTestId("waiting-on")).toHaveText(people.assignee.name);
  await admin.context().close();
});
