import { z } from "zod";
import { expect, people, signedInPage, test } from "./fixtures";
import { uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey } from "./support/agent-keys";

test("asking someone who is away resolves { ok: false, reason: 'away' } at once, and nothing reaches their inbox", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const parley = clientFor(baseURL!, await makeAgentKey(browser));
  const person = people.otherAssignee;
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin");
  const row = admin.getByTestId(`person-${person.email}`);
  await row.getByRole("button", { name: `Mark away: ${person.name}` }).click();
  await expect(row).toContainText("Away");
  try {
    const title = uniqueTitle("Approve the invoice?");
    const started = Date.now();
    const answer = await parley.ask({ to: person.email, title, schema: z.object({ approve: z.boolean().describe("Approve it?") }) });
    expect(answer).toMatchObject({ ok: false, reason: "away", ask: { title, status: "nothing", answer: null } });
    // At once: from the create itself, never a long-poll (which would hold for 10 s).
    expect(Date.now() - started).toBeLessThan(5_000);

    const page = await signedInPage(browser, person);
    await page.goto("/inbox?view=assigned");
    await expect(page.getByTestId("inbox-row").filter({ hasText: title })).toHaveCount(0);
    await page.context().close();
  } finally {
    await row.getByRole("button", { name: `Mark back: ${person.name}` }).click();
    await expect(row).not.toContainText("Away");
    await admin.context().close();
  }
});
