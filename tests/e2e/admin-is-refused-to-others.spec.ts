import { expect, people, signedInPage, test } from "./fixtures";
import { callServerAction, serverActionId } from "./support/server-actions";

test("an assignee who opens the admin page gets a refusal", async ({ browser }) => {
  const page = await signedInPage(browser, people.assignee);
  const response = await page.goto("/admin");
  expect(response?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Not for your role" })).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);
  await page.context().close();
});

test("an operator who opens the admin page gets a refusal", async ({ browser }) => {
  const page = await signedInPage(browser, people.operator);
  expect((await page.goto("/admin"))?.status()).toBe(403);
  await page.context().close();
});

test("an admin-only action called directly by an assignee is refused and changes nothing", async ({ browser, baseURL }) => {
  const actionId = serverActionId("app/(app)/admin/actions.ts", "setPersonAwayAction");
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin");
  const priyaRow = admin.getByTestId(`person-${people.otherAssignee.email}`);
  const priyaId = await priyaRow.locator('input[name="userId"]').inputValue();
  await expect(priyaRow).toContainText("Available");

  const assignee = await signedInPage(browser, people.assignee);
  const refused = await callServerAction(assignee.request, {
    baseURL: baseURL!,
    path: "/inbox",
    actionId,
    args: [null, { userId: priyaId, away: "true" }],
  });
  expect(refused.body).toContain('"code":"forbidden"');
  await admin.reload();
  await expect(priyaRow).toContainText("Available");

  // The same request from an admin does change it: the refusal above was the role check, not a bad request.
  const accepted = await callServerAction(admin.request, {
    baseURL: baseURL!,
    path: "/admin",
    actionId,
    args: [null, { userId: priyaId, away: "true" }],
  });
  expect(accepted.body).toContain('"ok":true');
  await admin.reload();
  await expect(priyaRow).toContainText("Away");
  await priyaRow.getByRole("button", { name: `Mark back: ${people.otherAssignee.name}` }).click();
  await expect(priyaRow).toContainText("Available");

  await admin.context().close();
  await assignee.context().close();
});

test("an admin-only action called directly without signing in is refused", async ({ request, baseURL }) => {
  const actionId = serverActionId("app/(app)/admin/actions.ts", "setPersonAwayAction");
  const result = await callServerAction(request, {
    baseURL: baseURL!,
    path: "/login",
    actionId,
    args: [null, { userId: "00000000-0000-4000-8000-000000000000", away: "true" }],
  });
  expect(result.body).toContain('"code":"unauthorized"');
});
