import { z } from "zod";
import { expect, people, signedInPage, test } from "./fixtures";
import { uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey } from "./support/agent-keys";

test("Priya names Sam on her profile and switches on Away: an agent's ask to her goes to Sam, who sees whom it was meant for", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const parley = clientFor(baseURL!, await makeAgentKey(browser));
  const priya = await signedInPage(browser, people.otherAssignee);
  try {
    await priya.goto("/profile");
    await priya.getByLabel("My new questions go to").selectOption({ label: people.assignee.name });
    await priya.getByRole("button", { name: "Save" }).click();
    await expect(priya.getByRole("status").filter({ hasText: "your new questions go to them" })).toBeVisible();
    await priya.getByRole("switch", { name: "Away" }).click();
    await expect(priya.getByRole("switch", { name: "Away" })).toHaveAttribute("aria-checked", "true");

    const title = uniqueTitle("Approve the catering order?");
    const asking = parley.ask({ to: people.otherAssignee.email, title, schema: z.object({ approve: z.boolean().describe("Approve it?") }), within: { hours: 1 } });

    const sam = await signedInPage(browser, people.assignee);
    await sam.goto("/inbox?view=assigned");
    const row = sam.getByTestId("inbox-row").filter({ hasText: title });
    await expect(row).toContainText("For Priya Shah, who is away: delegated to you");
    await row.getByRole("link").click();
    await expect(sam.getByRole("note")).toContainText("Meant for Priya Shah, who is away");
    // A required yes/no starts unanswered: Yes is chosen, not left as a switch's No.
    await sam.getByRole("group", { name: "Approve it?" }).getByLabel("Yes").check();
    await sam.getByRole("button", { name: "Send answer" }).click();
    expect(await asking).toMatchObject({ ok: true, value: { approve: true } });
    await sam.context().close();
  } finally {
    await priya.goto("/profile");
    if ((await priya.getByRole("switch", { name: "Away" }).getAttribute("aria-checked")) === "true") await priya.getByRole("switch", { name: "Away" }).click();
    await priya.getByLabel("My new questions go to").selectOption({ value: "" });
    await priya.getByRole("button", { name: "Save" }).click();
    await expect(priya.getByRole("status").filter({ hasText: "you get no new questions" })).toBeVisible();
    await priya.context().close();
  }
});
