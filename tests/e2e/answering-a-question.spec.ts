import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

async function questionFor(browser: Parameters<typeof signedInPage>[0], title: string) {
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Nordic Rail", amount: "310.00", incurredOn: "2026-11-10", assignee: people.assignee.name });
  await operator.context().close();
}

test("an empty answer is stopped in the browser on its field, and no attempt is spent", async ({ browser }) => {
  const title = uniqueTitle("Train tickets");
  await questionFor(browser, title);
  const page = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(page);
  await question.openFromInbox(title);
  await question.answer.fill("   ");
  await question.send();
  await expect(page.getByText("This question needs an answer.")).toBeVisible();
  await expect(question.answer).toBeFocused();
  await expect(question.runState).toContainText("Waiting");
  // Nothing reached the server: opened again, the question has used none of its attempts.
  await page.reload();
  await expect(page.getByText(/attempt \d of 3/i)).toHaveCount(0);
  await page.context().close();
});

test("an answer is taken, shown as the person's, and the run carries on where they can see it", async ({ browser }) => {
  const title = uniqueTitle("Train tickets");
  await questionFor(browser, title);
  const page = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(page);
  await question.openFromInbox(title);
  await expect(page.getByRole("complementary", { name: "Context" })).toContainText("Nordic Rail");
  await question.answer.fill("Rail tickets for the whole team to the Oslo client workshop.");
  await question.send();
  await expect(page.getByText("The Auditor carries on.")).toBeVisible();
  // The Auditor accepts a full answer and approves: the run moves on, live, to the reimbursement questions, and Sam is taken there.
  const answered = page.url();
  await page.waitForURL((url) => url.pathname.startsWith("/questions/") && url.toString() !== answered);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reimbursement");
  await expect(page.getByRole("complementary", { name: "Context" })).toContainText("Rail tickets for the whole team");
  await page.goto("/inbox?view=answered");
  await expect(page.getByRole("list", { name: "Answered by me" })).toContainText(title);
  await page.context().close();
});

test("a second answer from another candidate is told who answered first, and when", async ({ browser }) => {
  const title = uniqueTitle("Train tickets");
  await questionFor(browser, title);
  const first = await signedInPage(browser, people.assignee);
  const firstQuestion = new QuestionPage(first);
  await firstQuestion.openFromInbox(title);
  const url = first.url();

  const second = await signedInPage(browser, people.otherAssignee);
  // A page that has not heard the first answer yet (its live stream lags): otherwise the live refresh may
  // replace its form with the answer before its Send is clicked, and the race this test is about never happens.
  await second.route("**/api/events**", (route) => route.abort());
  await second.goto(url);
  const secondQuestion = new QuestionPage(second);
  await secondQuestion.answer.fill("I think it was the Oslo trip.");

  await firstQuestion.answer.fill("Rail tickets for the whole team to the Oslo client workshop.");
  await firstQuestion.send();
  await expect(first.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();

  await secondQuestion.send();
  await expect(second.getByText(new RegExp(`${people.assignee.name} answered this`))).toBeVisible();
  await first.context().close();
  await second.context().close();
});

test("someone the question was not put to gets a 404, and the answer action refuses them too", async ({ browser, baseURL }) => {
  const title = uniqueTitle("Train tickets");
  await questionFor(browser, title);
  const assignee = await signedInPage(browser, people.assignee);
  await new QuestionPage(assignee).openFromInbox(title);
  const url = assignee.url();
  const questionId = url.split("/").at(-1)!;

  const outsider = await signedInPage(browser, people.operator);
  expect((await outsider.goto(url))?.status()).toBe(404);

  const { callServerAction, serverActionId } = await import("./support/server-actions");
  const refused = await callServerAction(outsider.request, {
    baseURL: baseURL!,
    path: "/inbox",
    actionId: serverActionId("app/(app)/questions/[id]/actions.ts", "submitAnswerAction"),
    args: [null, { questionId, answer: "Let me answer for them." }],
  });
  expect(refused.body).toContain("not yours to answer");
  await assignee.reload();
  await expect(new QuestionPage(assignee).answer).toBeVisible();
  await assignee.context().close();
  await outsider.context().close();
});
