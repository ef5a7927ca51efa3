import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("an admin sees an open wait on the SLA page, reassigns it, and the new assignee has it in their inbox without a reload", async ({ browser }) => {
  const operator = await signedInPage(browser, people.operator);
  const title = uniqueTitle("Conference tickets");
  // The merchant names the wait on the SLA page (the question is about it); the demo's own reviews use others.
  const merchant = uniqueTitle("Venue");
  await new RunsPage(operator).startReview({ title, merchant, amount: "640.00", incurredOn: "2026-11-14", assignee: people.assignee.name });

  const newAssignee = await signedInPage(browser, people.otherAssignee);
  await newAssignee.goto("/inbox?view=assigned");
  await newAssignee.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  await expect(newAssignee.getByTestId("inbox-row").filter({ hasText: title })).toHaveCount(0);
  const oldAssignee = await signedInPage(browser, people.assignee);
  await oldAssignee.goto("/inbox?view=assigned");
  await oldAssignee.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const oldRow = oldAssignee.getByTestId("inbox-row").filter({ hasText: title });
  await expect(oldRow).toBeVisible();

  const admin = await signedInPage(browser, people.admin, { locale: "en-GB", timezoneId: "Asia/Tokyo" });
  await admin.goto("/admin");
  await admin.getByRole("link", { name: "SLA clocks" }).click();
  await expect(admin).toHaveURL(/\/admin\/sla$/);
  const row = admin.getByTestId("open-slot").filter({ hasText: merchant });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Expense review · Waiting");
  await expect(row.getByTestId("waiting-on")).toHaveText(people.assignee.name);
  await expect(row.locator(".sla-clock")).toHaveText(/^1d 23h left$|^2d left$/);
  await expect(row.locator(".sla-clock")).toHaveAttribute("data-band", "on-time");

  // The list of people is offered in the row whose "Reassign…" was followed, not in every row.
  await expect(admin.getByRole("combobox", { name: /^Reassign/ })).toHaveCount(0);
  await row.getByRole("link", { name: /^Reassign/ }).click();
  await expect(admin.getByRole("combobox", { name: /^Reassign/ })).toHaveCount(1);
  await row.getByRole("combobox", { name: /^Reassign/ }).selectOption({ label: people.otherAssignee.name });
  await row.getByRole("button", { name: "Reassign" }).click();
  await expect(row.getByRole("status")).toHaveText(`Reassigned to ${people.otherAssignee.name}.`);
  await expect(row.getByTestId("waiting-on")).toHaveText(people.otherAssignee.name);

  // Live, on both sides: the new assignee gains it, the old one loses it from "Assigned to me".
  await expect(newAssignee.getByTestId("inbox-row").filter({ hasText: title })).toBeVisible();
  await expect(oldRow).toHaveCount(0);
  expect(await newAssignee.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  expect(await oldAssignee.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  // Filtered by assignee, the wait is under its new one.
  const filters = admin.getByRole("form", { name: "Filter outstanding work" });
  await filters.getByLabel("Assignee").fill(people.assignee.email);
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(admin).toHaveURL(/assignee=/);
  await expect(admin.getByTestId("open-slot").filter({ hasText: merchant })).toHaveCount(0);
  await filters.getByLabel("Assignee").fill(people.otherAssignee.email);
  await filters.getByRole("button", { name: "Filter" }).click();
  await expect(admin.getByTestId("open-slot").filter({ hasText: merchant })).toHaveCount(1);
  await expect(admin.getByTestId("waiting-on").filter({ hasText: people.assignee.name })).toHaveCount(0);
  // Not breached, not at risk: two days to go.
  await admin.goto("/admin/sla?band=breached");
  await expect(admin.getByTestId("open-slot").filter({ hasText: merchant })).toHaveCount(0);
  await admin.goto("/admin/sla?band=at-risk");
  await expect(admin.getByTestId("open-slot").filter({ hasText: merchant })).toHaveCount(0);

  // The SLA numbers say when they were worked out, in the reader's own time zone.
  await expect(admin.getByTestId("sla-read-at")).toContainText(/^As of \d+ \w{3} \d{4}, \d\d:\d\d GMT\+9:/);

  // With no notifier configured, a reminder still reaches the person in Parley, and says that is all it did.
  await admin.goto("/admin/sla");
  await row.getByRole("button", { name: /^Remind about/ }).click();
  await expect(row.getByRole("status")).toContainText(/^Reminded .+ in Parley \(no email or webhook is configured, so only there\)\.$/);

  await admin.setViewportSize({ width: 1280, height: 1400 });
  await admin.screenshot({ path: "/tmp/admin-sla.png", fullPage: true });

  for (const page of [operator, newAssignee, oldAssignee, admin]) await page.context().close();
});
