import type { Page } from "@playwright/test";
import { expect, people, test } from "./fixtures";
import { type OpenIdProvider, type ProviderAccount, startOpenIdProvider } from "./support/openid-provider";
import { type OwnServer, startOwnServer } from "./support/own-server";

// A Parley of its own whose AUTH_URL is on 127.0.0.1 (the suite's server has no single sign-on).
const PORT = Number(process.env.PARLEY_E2E_PORT ?? "3100") + 8;
const BASE = `http://127.0.0.1:${PORT}`;

/** The people at the provider, by the login typed there. */
const ACCOUNTS = {
  "sam-in-id-token": { name: "Sam at the provider", email: people.assignee.email, email_verified: true },
  "priya-in-userinfo": { name: "Priya at the provider", email: people.otherAssignee.email, email_verified: true, emailOnlyInUserInfo: true },
  // Each has the admin's email, unverified: none of them may sign in as the admin.
  "unverified-false": { name: "Not Ada", email: people.admin.email, email_verified: false },
  "unverified-missing": { name: "Not Ada", email: people.admin.email },
  "unverified-string": { name: "Not Ada", email: people.admin.email, email_verified: "false" },
  stranger: { name: "A stranger", email: "stranger@elsewhere.test", email_verified: true },
} satisfies Record<string, ProviderAccount>;

let provider: OpenIdProvider;
let server: OwnServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  provider = await startOpenIdProvider(`${BASE}/api/auth/callback/oidc`, ACCOUNTS);
  server = await startOwnServer({
    name: "sso",
    port: PORT,
    env: {
      AUTH_URL: BASE,
      AUTH_OIDC_ISSUER: provider.issuer,
      AUTH_OIDC_ID: provider.clientId,
      AUTH_OIDC_SECRET: provider.clientSecret,
      AUTH_OIDC_NAME: "Test provider",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

/** From Parley's sign-in page to the provider's login page. */
async function goToProvider(page: Page) {
  await page.goto(`${BASE}/login`);
  await page.getByRole("button", { name: "Continue with Test provider" }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
}

/** Signs in at the provider as `login` (any password does there). */
async function signInAtProvider(page: Page, login: keyof typeof ACCOUNTS) {
  await goToProvider(page);
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("anything");
  await page.getByRole("button", { name: "Sign-in" }).click();
}

function alertOn(page: Page) {
  return page.getByRole("alert").filter({ hasText: /./ });
}

test("an email in the ID token signs in as that Parley person", async ({ page }) => {
  await signInAtProvider(page, "sam-in-id-token");
  await expect(page).toHaveURL(`${BASE}/inbox`);
  await expect(page.getByTestId("user-name")).toHaveText(people.assignee.name);
});

test("an email only in UserInfo signs in as that Parley person", async ({ page }) => {
  await signInAtProvider(page, "priya-in-userinfo");
  await expect(page).toHaveURL(`${BASE}/inbox`);
  await expect(page.getByTestId("user-name")).toHaveText(people.otherAssignee.name);
});

for (const login of ["unverified-false", "unverified-missing", "unverified-string"] as const) {
  test(`an email the provider did not verify is refused, saying so (${login})`, async ({ page }) => {
    await signInAtProvider(page, login);
    await expect(page).toHaveURL(new RegExp(`^${BASE}/login`));
    await expect(alertOn(page)).toHaveText(/did not confirm that the email address is yours/);
    await page.goto(`${BASE}/admin`);
    await expect(page).toHaveURL(new RegExp(`^${BASE}/login`));
  });
}

test("a verified email with no Parley account is refused, saying there is no account", async ({ page }) => {
  const logged = server.output().length;
  await signInAtProvider(page, "stranger");
  await expect(page).toHaveURL(new RegExp(`^${BASE}/login`));
  await expect(alertOn(page)).toHaveText(/that email has no Parley account/);
  expect(server.output().slice(logged)).not.toMatch(/\n\s+at /);
});

test("cancelling at the provider comes back to sign-in with a plain message", async ({ page }) => {
  const logged = server.output().length;
  await goToProvider(page);
  await page.getByRole("link", { name: "[ Cancel ]" }).click();
  await expect(page).toHaveURL(new RegExp(`^${BASE}/login`));
  await expect(alertOn(page)).toHaveText(/cancelled or refused at the provider, so you are not signed in/);
  // An everyday event: one line in the log, not a stack trace.
  await expect.poll(() => server.output().slice(logged)).toMatch(/Single sign-on: the provider sent the person back without signing them in/);
  expect(server.output().slice(logged)).not.toMatch(/\n\s+at /);
});
