import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("an answered question shows what was answered, on its page and in Answered by me", async ({ browser }) => {
  const title = uniqueTitle("Museum tickets");
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Museu Nacional", amount: "64.00", incurredOn: "2026-11-12", assignee: people.assignee.name });
  await operator.context().close();

  const page = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(page);
  await question.openFromInbox(title);
  const explanation = "Tickets for the client's team visit after the workshop.";
  await question.answer.fill(explanation);
  await question.send();
  await expect(page.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();

  // Opened again later: the answer is there, read-only.
  await page.goto(page.url());
  const answered = page.getByRole("status").getByLabel("What was answered");
  await expect(answered).toContainText(explanation);
  await expect(page.getByRole("button", { name: "Send answer" })).toHaveCount(0);

  await page.goto("/inbox?view=answered");
  await expect(page.getByRole("list", { name: "Answered by me" }).getByRole("listitem").filter({ hasText: title })).toContainText(`You answered: ${explanation}`);
  await page.context().close();
});
