import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

test("the Auditor offers options, Sam writes his own answer instead, and the Auditor carries on with his words", async ({ browser }) => {
  test.setTimeout(90_000);
  const title = uniqueTitle("Flowers");
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Bloom & Co", amount: "300.00", incurredOn: "2026-11-12", assignee: people.assignee.name });
  await operator.context().close();

  const sam = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(sam);
  await question.openFromInbox(title);
  // A thin answer: the Auditor asks again, offering options.
  await question.answer.fill("Flowers");
  await question.send();
  // The answered question's page shows its conversation up to that answer; the Auditor's next question arrives in the inbox.
  await expect(async () => {
    await sam.goto("/inbox?view=assigned");
    await expect(sam.getByTestId("inbox-row").filter({ hasText: title })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await question.openFromInbox(title);
  await expect(sam.getByText("Personal — I'll repay it").first()).toBeVisible();

  const ownWords = "Flowers for the client's reopening, as agreed with their office manager";
  await sam.getByRole("textbox", { name: /In my own words/ }).fill(ownWords);
  await expect(sam.getByRole("radio", { name: "In my own words" })).toBeChecked();
  await question.send();

  await expect(sam.getByRole("status").filter({ hasText: /Your answer was taken|You answered this/ }).first()).toBeVisible();
  await sam.reload();
  await expect(sam.getByRole("region", { name: "Your answer" }).getByRole("definition")).toHaveText(ownWords);
  // The Auditor's call got his words as its result and decided on them.
  await expect(sam.getByText(`The filer explained the Bloom & Co charge: "${ownWords}".`).first()).toBeVisible({ timeout: 20_000 });
  await sam.context().close();
});
