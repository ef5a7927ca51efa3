import { expect, people, signedInPage, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys-page";
import { uniqueTitle } from "./pages/runs-page";
import { callFormAction } from "./support/form-actions";
import { serverActionId } from "./support/server-actions";

test("an admin makes an agent key, sees its secrets once, and revokes it", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  await admin.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await admin.goto("/admin");
  await admin.getByRole("link", { name: "API keys" }).click();
  await expect(admin.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  const keys = new ApiKeysPage(admin, "/admin/api-keys");
  const name = uniqueTitle("Deploy bot");

  await keys.create(name);
  await expect(keys.created).toContainText(`New key “${name}”`);
  await expect(keys.created).toContainText("Copy it now: it is not shown again");
  const secret = (await keys.newSecret.textContent())!;
  expect(secret).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
  await expect(keys.created.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
  // The form is ready for the next key.
  await expect(keys.name).toHaveValue("");

  await keys.created.getByRole("button", { name: "Copy the API key" }).click();
  await expect(keys.created.getByRole("status").filter({ hasText: "Copied." })).toBeVisible();
  expect(await admin.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  // Listed by its first characters, live, never used.
  const row = keys.row(name);
  await expect(row).toContainText(`${secret.slice(0, 10)}…`);
  await expect(row).toContainText("Live");
  await expect(row).toContainText("never");

  // Once: a fresh look at the page has no secret on it.
  await keys.goto();
  await expect(keys.created).toHaveCount(0);
  await expect(keys.row(name)).toBeVisible();
  expect(await admin.content()).not.toContain(secret);

  await keys.revoke(name);
  await expect(keys.row(name).getByRole("button", { name: /Revoke/ })).toHaveCount(0);
  await keys.goto();
  await expect(keys.row(name)).toContainText("Revoked");
  await admin.context().close();
});

test("a name the server refuses comes back beside its field, with what was typed", async ({ browser }) => {
  const admin = await signedInPage(browser, people.admin);
  const keys = new ApiKeysPage(admin, "/admin/api-keys");
  await keys.goto();
  const before = await admin.getByTestId("api-key-row").count();
  // A right-to-left override would let a name show people something other than what it says.
  const spoof = "Payroll \u202Etxt.exe";
  await keys.create(spoof);
  await expect(admin.getByRole("alert").filter({ hasText: "A name is one line of plain text: no control characters." })).toBeVisible();
  await expect(keys.name).toHaveAttribute("aria-invalid", "true");
  await expect(keys.name).toHaveValue(spoof);
  // Spaces satisfy the browser's `required`; the server trims them away.
  await keys.create("   ");
  await expect(admin.getByRole("alert").filter({ hasText: "Give the key a name: people see it as who is asking." })).toBeVisible();
  await expect(keys.name).toHaveValue("   ");
  await expect(keys.created).toHaveCount(0);
  await expect(admin.getByTestId("api-key-row")).toHaveCount(before);
  await admin.context().close();
});

test("with JavaScript off, an admin makes a key and sees its secret once", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(people.admin.email);
  await page.getByLabel("Password").fill(people.admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
  const keys = new ApiKeysPage(page, "/admin/api-keys");
  await keys.goto();
  const name = uniqueTitle("No-script bot");
  await keys.create(name);
  await expect(keys.newSecret).toHaveText(/^pk_/);
  // No copy button where the browser can't copy: the secret is there to select.
  await expect(keys.created.getByRole("button")).toHaveCount(0);
  await expect(keys.row(name)).toContainText("Live");
  await keys.row(name).getByRole("button", { name: `Revoke “${name}”` }).click();
  await expect(keys.row(name)).toContainText("Revoked");
  await context.close();
});

test("people who are not admins are refused the page and its actions, and no key is made", async ({ browser, baseURL }) => {
  const name = uniqueTitle("Intruder bot");
  for (const person of [people.assignee, people.operator]) {
    const page = await signedInPage(browser, person);
    expect((await page.goto("/admin/api-keys"))?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Not for your role" })).toBeVisible();
    const created = await callFormAction(page.request, {
      baseURL: baseURL!,
      path: "/inbox",
      actionId: serverActionId("app/(app)/admin/api-keys/actions.ts", "createAgentKeyAction"),
      args: [null, { name }],
    });
    expect(created.body).toContain('"code":"forbidden"');
    await page.context().close();
  }

  const admin = await signedInPage(browser, people.admin);
  const keys = new ApiKeysPage(admin, "/admin/api-keys");
  await keys.goto();
  await expect(keys.row(name)).toHaveCount(0);
  // An admin's key, which nobody else may revoke.
  const victim = uniqueTitle("Kept bot");
  await keys.create(victim);
  await expect(keys.row(victim)).toContainText("Live");
  const keyId = await keys.row(victim).locator('input[name="keyId"]').inputValue();

  const assignee = await signedInPage(browser, people.assignee);
  const revoked = await callFormAction(assignee.request, {
    baseURL: baseURL!,
    path: "/inbox",
    actionId: serverActionId("app/(app)/admin/api-keys/actions.ts", "revokeAgentKeyAction"),
    args: [null, { keyId }],
  });
  expect(revoked.body).toContain('"code":"forbidden"');
  await keys.goto();
  await expect(keys.row(victim)).toContainText("Live");
  await assignee.context().close();
  await admin.context().close();
});
