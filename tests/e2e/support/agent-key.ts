import type { Browser } from "@playwright/test";
import { people, signedInPage } from "../fixtures";
import { ApiKeysPage } from "../pages/api-keys-page";

/** An agent key made the way an admin makes one: on the API keys page, its secrets read off the page the once they are shown. */
export interface AgentKey {
  name: string;
  secret: string;
  webhookSecret: string;
}

/** Signs in as the demo admin, makes an agent key called `name` (unique per test run) and reads its secrets. */
export async function makeAgentKey(browser: Browser, name: string): Promise<AgentKey> {
  const page = await signedInPage(browser, people.admin);
  try {
    const keys = new ApiKeysPage(page, "/admin/api-keys");
    await keys.goto();
    await keys.create(name);
    const secret = (await keys.newSecret.textContent())?.trim() ?? "";
    const webhookSecret = (await keys.created.getByTestId("webhook-secret").textContent())?.trim() ?? "";
    if (!secret.startsWith("pk_") || !webhookSecret.startsWith("whsec_")) throw new Error(`the API keys page showed no secrets for ${name}`);
    return { name, secret, webhookSecret };
  } finally {
    await page.context().close();
  }
}
