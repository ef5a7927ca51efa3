import { type Browser, type BrowserContextOptions, type Page, test as base } from "@playwright/test";
import { DEMO_USERS, type DemoUser } from "@/lib/demo-people";
import { LoginPage } from "./pages/login-page";

/** Whether the server under test runs on PostgreSQL (else on the embedded database in demo mode). */
export const ON_POSTGRES = Boolean(process.env.PARLEY_TEST_POSTGRES_URL?.trim());

function demoUser(email: string): DemoUser {
  const user = DEMO_USERS.find((candidate) => candidate.email === email);
  if (!user) throw new Error(`no demo user ${email}`);
  return user;
}

/** The demo people, by what they are in the tests. */
export const people = {
  admin: demoUser("ada@parley.test"),
  operator: demoUser("omar@parley.test"),
  assignee: demoUser("sam@parley.test"),
  otherAssignee: demoUser("priya@parley.test"),
  assigneeAndOperator: demoUser("lee@parley.test"),
};

/** A page in a browser context of its own, signed in as `user`. */
export async function signedInPage(browser: Browser, user: DemoUser, options?: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await new LoginPage(page).signInAs(user);
  return page;
}

export const test = base.extend<{ loginPage: LoginPage }>({
  loginPage: async ({ page }, use) => {
    await use(new LoginPage(page));
  },
});

export { expect } from "@playwright/test";
