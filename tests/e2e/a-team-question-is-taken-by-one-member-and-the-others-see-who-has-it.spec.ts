import { expect, people, signedInPage, test } from "./fixtures";
import { makeAgentKey } from "./support/agent-key";

test("an agent asks the finance team; Sam takes it from My team, Priya sees that Sam has it and cannot answer, Sam answers and the agent gets his answer", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const key = await makeAgentKey(browser, `Team bot ${Date.now()}`);
  const title = `Renew the accounting licence? ${Date.now()}`;
  const created = await request.post("/api/v1/asks", {
    headers: { authorization: `Bearer ${key.secret}` },
    data: { to: { group: "finance" }, title, due_in_seconds: 3600 },
  });
  expect(created.status()).toBe(201);
  const ask = (await created.json()) as { id: string; status: string; url: string };
  expect(ask.status).toBe("open");

  const sam = await signedInPage(browser, people.assignee);
  const priya = await signedInPage(browser, people.otherAssignee);
  try {
    await sam.goto("/inbox?view=team");
    await sam.getByTestId("inbox-row").filter({ hasText: title }).getByRole("link").click();
    await sam.getByRole("button", { name: "I'll take it" }).click();
    await expect(sam.getByText("You took this question")).toBeVisible();
    // What Sam took is his: it is under Assigned to me now.
    await sam.goto("/inbox?view=assigned");
    await expect(sam.getByTestId("inbox-row").filter({ hasText: title })).toContainText("You took it");
    await sam.goto(new URL(ask.url).pathname);

    await priya.goto("/inbox?view=team");
    await expect(priya.getByTestId("inbox-row").filter({ hasText: title })).toContainText("Sam Rivera took it");
    await priya.goto(new URL(ask.url).pathname);
    await expect(priya.getByRole("status").filter({ hasText: "Sam Rivera took this question" })).toBeVisible();
    await expect(priya.getByRole("button", { name: "Send answer" })).toHaveCount(0);

    await sam.getByRole("textbox").first().fill("Yes, for another year.");
    await sam.getByRole("button", { name: "Send answer" }).click();
    // The action says it was taken, and the page, refreshed live, then says who answered.
    await expect(sam.getByRole("status").filter({ hasText: /Your answer was taken|You answered this/ }).first()).toBeVisible();

    const answered = await request.get(`/api/v1/asks/${ask.id}?wait=10`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect(await answered.json()).toMatchObject({ status: "answered", answer: "Yes, for another year.", answered_by: { email: people.assignee.email } });
  } finally {
    await sam.context().close();
    await priya.context().close();
  }
});
