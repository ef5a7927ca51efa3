import { expect, people, signedInPage, test } from "./fixtures";
import { PeoplePage, uniqueEmail } from "./pages/people-page";
import { uniqueTitle } from "./pages/runs-page";
import { makeAgentKey } from "./support/agent-key";

test("a person an admin adds to on-call signs in through the invite link, takes the team's question and answers it, and the agent gets their answer", async ({ browser, request }) => {
  test.setTimeout(120_000);
  const key = await makeAgentKey(browser, `On-call bot ${Date.now()}`);
  const admin = await signedInPage(browser, people.admin);
  const peoplePage = new PeoplePage(admin);
  await peoplePage.goto();
  const name = uniqueTitle("Noor Newcomer");
  const email = uniqueEmail("noor");
  const link = await peoplePage.addPerson({ name, email, roles: ["Assignee"], groups: ["on-call"] });
  await admin.context().close();

  const newcomer = await (await browser.newContext()).newPage();
  try {
    await newcomer.goto(link);
    await newcomer.getByLabel("New password").fill("a long new password");
    await newcomer.getByLabel("The same password again").fill("a long new password");
    await newcomer.getByRole("button", { name: "Set password and sign in" }).click();
    await newcomer.waitForURL("**/inbox");

    const title = uniqueTitle("Restart the payments queue?");
    const created = await request.post("/api/v1/asks", { headers: { authorization: `Bearer ${key.secret}` }, data: { to: { group: "on-call" }, title, due_in_seconds: 3600 } });
    expect(created.status()).toBe(201);
    const ask = (await created.json()) as { id: string };

    await newcomer.goto("/inbox?view=team");
    await newcomer.getByTestId("inbox-row").filter({ hasText: title }).getByRole("link").click();
    await newcomer.getByRole("button", { name: "I'll take it" }).click();
    await expect(newcomer.getByText("You took this question")).toBeVisible();
    await newcomer.getByRole("textbox").first().fill("Yes, restart it now.");
    await newcomer.getByRole("button", { name: "Send answer" }).click();

    const answered = await request.get(`/api/v1/asks/${ask.id}?wait=10`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect(await answered.json()).toMatchObject({ status: "answered", answer: "Yes, restart it now.", answered_by: { email, name } });
  } finally {
    await newcomer.context().close();
  }
});
