import type { Browser } from "@playwright/test";
import type { DemoUser } from "@/lib/demo-people";
import { signedInPage } from "../fixtures";
import { ApiKeysPage } from "../pages/api-keys-page";

/** Signs in as `person`, makes a token for the terminal called `name` on their profile and reads its secret off the page, the once it is shown. */
export async function makePersonalToken(browser: Browser, person: DemoUser, name: string): Promise<string> {
  const page = await signedInPage(browser, person);
  try {
    const tokens = new ApiKeysPage(page, "/profile");
    await tokens.goto();
    await tokens.create(name);
    const secret = (await tokens.newSecret.textContent())?.trim() ?? "";
    if (!secret.startsWith("pt_")) throw new Error(`the profile showed no token for ${name}`);
    return secret;
  } finally {
    await page.context().close();
  }
}
