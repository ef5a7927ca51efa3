import { expect, people, signedInPage, test } from "./fixtures";
import { uniqueTitle } from "./pages/runs-page";
import { makeAgentKey } from "./support/agent-key";

test("an ask to Sam that escalates to on-call at 20 % of its clock reaches Lee's team view when that moment passes, and the SLA page says it escalated", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const key = await makeAgentKey(browser, `Escalating bot ${Date.now()}`);
  const title = uniqueTitle("Roll back the search release?");
  // Both signed in and Lee's team view open before the ask starts its clock: the step is due 4 s after it.
  const lee = await signedInPage(browser, people.assigneeAndOperator);
  const admin = await signedInPage(browser, people.admin);
  try {
    await lee.goto("/inbox?view=team");
    const created = await request.post("/api/v1/asks", {
      headers: { authorization: `Bearer ${key.secret}` },
      data: { to: people.assignee.email, title, due_in_seconds: 20, escalation: [{ after_percent: 20, action: "add_group", group: "on-call" }] },
    });
    expect(created.status()).toBe(201);
    await expect(lee.getByTestId("inbox-row").filter({ hasText: title })).toHaveCount(0);
    // The worker's sweep fires the step and Lee's inbox updates live, without a reload.
    await expect(lee.getByTestId("inbox-row").filter({ hasText: title })).toHaveCount(1, { timeout: 15_000 });

    await admin.goto("/admin/sla");
    await expect(admin.getByTestId("open-slot").filter({ hasText: title }).getByTestId("escalation")).toContainText("Escalated: +on-call at 20 %");
  } finally {
    await lee.context().close();
    await admin.context().close();
  }
});
