import { expect, people, signedInPage, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";
import { makeAgentKey } from "./support/agent-key";

/** Asks the demo assignee over the API with `key`; returns the ask's id and its question's path. */
async function askSam(request: import("@playwright/test").APIRequestContext, secret: string, title: string): Promise<{ id: string; path: string }> {
  const created = await request.post("/api/v1/asks", { headers: { authorization: `Bearer ${secret}` }, data: { to: people.assignee.email, title } });
  expect(created.status()).toBe(201);
  const ask = (await created.json()) as { id: string; url: string };
  return { id: ask.id, path: new URL(ask.url).pathname };
}

test("a person declines a question with a note, and the asker's long-poll gets nothing, reason declined, with who and the note", async ({ browser, request }) => {
  test.setTimeout(90_000);
  const key = await makeAgentKey(browser, `Refund bot ${Date.now()}`);
  const ask = await askSam(request, key.secret, "Refund order 4411 in full?");
  const waiting = request.get(`/api/v1/asks/${ask.id}?wait=60`, { headers: { authorization: `Bearer ${key.secret}` }, timeout: 70_000 });

  const page = await signedInPage(browser, people.assignee);
  await page.goto(ask.path);
  // Beside the answer, never competing with it: a step to open first.
  await page.getByText("I can’t answer this…").click();
  await page.getByLabel("A note for whoever asked (optional)").fill("Refunds over 500 EUR are for finance: ask Priya.");
  await page.getByRole("button", { name: "Decline the question" }).click();
  await expect(page.getByTestId("closed-without-answer")).toHaveText("You declined this question, noting: “Refunds over 500 EUR are for finance: ask Priya.”");
  await expect(page.getByRole("button", { name: "Send answer" })).toHaveCount(0);

  const answered = await waiting;
  expect(answered.status()).toBe(200);
  expect(await answered.json()).toMatchObject({
    status: "nothing",
    reason: "declined",
    declined_by: { email: people.assignee.email },
    note: "Refunds over 500 EUR are for finance: ask Priya.",
  });
  await page.context().close();
});

test("with JavaScript off, a person declines a question without a note and its page says so", async ({ browser, request }) => {
  const key = await makeAgentKey(browser, `Refund bot ${Date.now()}`);
  const ask = await askSam(request, key.secret, "Refund order 4412 in full?");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await new LoginPage(page).signInAs(people.assignee);
  await page.goto(ask.path);
  await page.getByText("I can’t answer this…").click();
  await page.getByRole("button", { name: "Decline the question" }).click();
  await expect(page.getByTestId("closed-without-answer")).toHaveText("You declined this question.");
  const now = await request.get(`/api/v1/asks/${ask.id}`, { headers: { authorization: `Bearer ${key.secret}` } });
  expect(await now.json()).toMatchObject({ status: "nothing", reason: "declined", note: null });
  await context.close();
});
