import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunPage } from "./pages/run-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

async function questionFor(browser: Parameters<typeof signedInPage>[0], title: string) {
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Nordic Rail", amount: "310.00", incurredOn: "2026-11-10", assignee: people.assignee.name });
  await operator.context().close();
}

test("an answer past 10,000 characters is refused on its field in plain words, and the text is kept", async ({ browser }) => {
  const title = uniqueTitle("Pasted page");
  await questionFor(browser, title);
  const page = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(page);
  await question.openFromInbox(title);
  const pasted = "Rail tickets. ".repeat(800);
  await question.answer.fill(pasted);
  await question.send();
  await expect(page.getByText(`Keep this answer to 10,000 characters or fewer; it has ${pasted.trim().length.toLocaleString("en-US")}.`).first()).toBeVisible();
  await expect(question.runState).toContainText("Waiting");
  await expect(question.answer).toHaveValue(pasted);
  await page.context().close();
});

test("a long answer shows its start on the run page and opens to the whole of it", async ({ browser }) => {
  const title = uniqueTitle("Long story");
  await questionFor(browser, title);
  const assignee = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(assignee);
  await question.openFromInbox(title);
  const story = `Rail tickets for the whole team to the Oslo client workshop. ${"The rest of the trip is explained here at length. ".repeat(30)}The end of the story.`;
  await question.answer.fill(story);
  await question.send();
  await expect(assignee.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
  await assignee.context().close();

  const operator = await signedInPage(browser, people.operator);
  const run = new RunPage(operator);
  await run.openFromRuns(title);
  const answer = run.entriesOf("answer").first();
  const more = answer.getByText(`Show all ${story.trim().length.toLocaleString("en-US")} characters`);
  await expect(more).toBeVisible();
  await expect(answer.getByText("The end of the story.")).toBeHidden();
  await more.click();
  await expect(answer.getByText(/The end of the story\.$/)).toBeVisible();
  await operator.context().close();
});
