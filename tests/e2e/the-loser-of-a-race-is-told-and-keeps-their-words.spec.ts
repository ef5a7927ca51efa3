import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { type AgentKey, makeAgentKey } from "./support/agent-key";

/*
 * Two candidates of one question write an answer at once; Priya's is taken. Sam, who loses, is told
 * his answer was not taken, who answered and when, what was answered, and keeps his own words to
 * copy — whether his own submission loses, or the page's live refresh closes the form while he types.
 */

let key: AgentKey;

test.beforeAll(async ({ browser }) => {
  key = await makeAgentKey(browser, `Race bot ${Date.now()}`);
});

/** An ask put to Sam and Priya, either of whom may answer: the path of its page. */
async function askBoth(request: APIRequestContext, title: string): Promise<string> {
  const created = await request.post("/api/v1/asks", {
    headers: { authorization: `Bearer ${key.secret}` },
    data: { to: [people.assignee.email, people.otherAssignee.email], title, due_in_seconds: 3600 },
  });
  expect(created.status()).toBe(201);
  return new URL(((await created.json()) as { url: string }).url).pathname;
}

async function priyaAnswers(browser: Browser, path: string, text: string) {
  const priya = await signedInPage(browser, people.otherAssignee);
  await priya.goto(path);
  await priya.getByRole("textbox").first().fill(text);
  await priya.getByRole("button", { name: "Send answer" }).click();
  await expect(priya.getByRole("status").filter({ hasText: /Your answer was taken|You answered this/ }).first()).toBeVisible();
  await priya.context().close();
}

async function expectToldAndKept(sam: Page, theirs: string, mine: string) {
  const told = sam.getByTestId("answer-not-taken");
  await expect(told.getByRole("alert")).toContainText("Your answer was not taken");
  await expect(told.getByRole("alert")).toContainText(/Priya Shah answered first, at \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC \(.+ ago\)/);
  await expect(sam.getByRole("definition").filter({ hasText: theirs })).toBeVisible();
  await expect(told.getByTestId("kept-answer")).toHaveText(mine);
  await expect(sam.getByRole("button", { name: "Send answer" })).toHaveCount(0);
}

test("when his own submission loses, Sam is told who answered and when, sees their answer and keeps his words", async ({ browser, request }) => {
  const path = await askBoth(request, `Which supplier for the office chairs? ${Date.now()}`);
  const sam = await signedInPage(browser, people.assignee);
  // His page hears nothing live, so his own submission is what finds out.
  await sam.context().route("**/api/events**", (route) => route.abort());
  await sam.goto(path);
  const mine = "Ergo Seating — their quote was lower and includes delivery.";
  await sam.getByRole("textbox").first().fill(mine);

  await priyaAnswers(browser, path, "Chairs & Co, as last year.");
  await sam.getByRole("button", { name: "Send answer" }).click();

  await expectToldAndKept(sam, "Chairs & Co, as last year.", mine);
  await sam.context().close();
});

test("when the live refresh closes the form while Sam types, he is told and keeps what he typed", async ({ browser, request }) => {
  const path = await askBoth(request, `Which room for the offsite? ${Date.now()}`);
  const sam = await signedInPage(browser, people.assignee);
  await sam.goto(path);
  const mine = "The big room on the third floor, it has the projector.";
  await sam.getByRole("textbox").first().fill(mine);

  await priyaAnswers(browser, path, "The rooftop, weather permitting.");

  await expectToldAndKept(sam, "The rooftop, weather permitting.", mine);
  await sam.context().close();
});

test("with JavaScript off, Sam's losing submission is told who answered and keeps his words", async ({ browser, request }) => {
  const path = await askBoth(request, `Who signs the lease renewal? ${Date.now()}`);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const sam = await context.newPage();
  await sam.goto("/login");
  await sam.getByLabel("Email").fill(people.assignee.email);
  await sam.getByLabel("Password").fill(people.assignee.password);
  await sam.getByRole("button", { name: "Sign in" }).click();
  await sam.waitForURL(/\/inbox/);
  await sam.goto(path);
  const mine = "Dana, since she negotiated it.";
  await sam.getByRole("textbox").first().fill(mine);

  await priyaAnswers(browser, path, "The office manager.");
  await sam.getByRole("button", { name: "Send answer" }).click();

  await expectToldAndKept(sam, "The office manager.", mine);
  await context.close();
});
