import { expect, people, signedInPage, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { uniqueTitle } from "./pages/runs-page";
import { callFormAction } from "./support/form-actions";
import { serverActionId } from "./support/server-actions";

test("a person opens their profile from the top bar, makes a token, sees it once and revokes it", async ({ browser }) => {
  const sam = await signedInPage(browser, people.assignee);
  await sam.getByRole("banner").getByRole("link", { name: people.assignee.name }).click();
  await expect(sam).toHaveURL(/\/profile$/);
  await expect(sam.getByRole("heading", { name: "Profile" })).toBeVisible();
  await expect(sam.getByText(people.assignee.email)).toBeVisible();

  const tokens = new ApiKeysPage(sam, "/profile");
  const name = uniqueTitle("Sam's laptop");
  await tokens.create(name);
  await expect(tokens.created).toContainText("Copy it now: it is not shown again");
  const secret = (await tokens.newSecret.textContent())!;
  expect(secret).toMatch(/^pt_/);
  // A personal token signs no webhooks.
  await expect(tokens.created.getByTestId("webhook-secret")).toHaveCount(0);
  await expect(tokens.row(name)).toContainText(`${secret.slice(0, 10)}…`);

  await tokens.goto();
  expect(await sam.content()).not.toContain(secret);
  await tokens.revoke(name);
  await sam.context().close();
});

test("nobody sees or revokes someone else's token", async ({ browser, baseURL }) => {
  const sam = await signedInPage(browser, people.assignee);
  const samTokens = new ApiKeysPage(sam, "/profile");
  await samTokens.goto();
  const name = uniqueTitle("Sam's desktop");
  await samTokens.create(name);
  await expect(samTokens.row(name)).toContainText("Live");
  const keyId = await samTokens.row(name).locator('input[name="keyId"]').inputValue();

  for (const other of [people.otherAssignee, people.admin]) {
    const page = await signedInPage(browser, other);
    await page.goto("/profile");
    await expect(page.getByText(name)).toHaveCount(0);
    const result = await callFormAction(page.request, {
      baseURL: baseURL!,
      path: "/profile",
      actionId: serverActionId("app/(app)/profile/actions.ts", "revokePersonalTokenAction"),
      args: [null, { keyId }],
    });
    expect(result.body).toContain('"code":"not_found"');
    await page.context().close();
  }
  // Nor does an admin's agent-key action reach it.
  const admin = await signedInPage(browser, people.admin);
  const asAgentKey = await callFormAction(admin.request, {
    baseURL: baseURL!,
    path: "/admin/api-keys",
    actionId: serverActionId("app/(app)/admin/api-keys/actions.ts", "revokeAgentKeyAction"),
    args: [null, { keyId }],
  });
  expect(asAgentKey.body).toContain('"code":"not_found"');
  await admin.context().close();

  await samTokens.goto();
  await expect(samTokens.row(name)).toContainText("Live");
  await samTokens.revoke(name);
  await sam.context().close();
});
