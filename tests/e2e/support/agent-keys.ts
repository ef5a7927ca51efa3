import type { Browser, Page } from "@playwright/test";
import { createParleyClient, type ParleyClient } from "@parleyhq/client";
import { expect, people, signedInPage } from "../fixtures";
import { ApiKeysPage } from "../pages/api-keys-page";
import { QuestionPage } from "../pages/question-page";
import { uniqueTitle } from "../pages/runs-page";

/** An agent key an admin made on Admin → API keys for one test. */
export interface AgentKey {
  name: string;
  secret: string;
}

/** Makes an agent key the way an admin does, on the API keys page, and returns its secret. */
export async function makeAgentKey(browser: Browser, prefix = "Client test bot"): Promise<AgentKey> {
  const admin = await signedInPage(browser, people.admin);
  const keys = new ApiKeysPage(admin, "/admin/api-keys");
  await keys.goto();
  const name = uniqueTitle(prefix);
  await keys.create(name);
  const secret = (await keys.newSecret.textContent())!.trim();
  expect(secret).toMatch(/^pk_/);
  await admin.context().close();
  return { name, secret };
}

/** Revokes the key on the API keys page. */
export async function revokeAgentKey(browser: Browser, key: AgentKey): Promise<void> {
  const admin = await signedInPage(browser, people.admin);
  const keys = new ApiKeysPage(admin, "/admin/api-keys");
  await keys.goto();
  await keys.revoke(key.name);
  await admin.context().close();
}

/** The typed client on the server under test, with this key; long-polls are short so a test never waits long on one. */
export function clientFor(baseURL: string, key: AgentKey | string): ParleyClient {
  return createParleyClient({ baseUrl: baseURL, apiKey: typeof key === "string" ? key : key.secret, pollSeconds: 10, retry: { giveUpAfterMs: 20_000 } });
}

/** Waits until the key's open asks include one titled `title` (the ask is in the person's inbox then). */
export async function untilAsked(parley: ParleyClient, title: string): Promise<void> {
  await expect.poll(async () => (await parley.listAsks({ status: "open" })).data.some((ask) => ask.title === title), { timeout: 15_000 }).toBe(true);
}

/** Signs in as the demo assignee and opens their question titled `title` from the inbox. */
export async function openAsAssignee(browser: Browser, title: string): Promise<Page> {
  const page = await signedInPage(browser, people.assignee);
  await new QuestionPage(page).openFromInbox(title);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
  return page;
}
