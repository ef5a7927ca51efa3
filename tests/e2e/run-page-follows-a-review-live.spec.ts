import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunsPage, uniqueTitle } from "./pages/runs-page";
import { RunPage } from "./pages/run-page";

const EXPLANATION = "Dinner with the Acme procurement team to close the renewal contract.";

/** An operator's new review of a claim the Auditor will ask about, and its run page open. */
async function watchNewReview(browser: Parameters<typeof signedInPage>[0], title: string) {
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Casa Lisboa", amount: "212.40", incurredOn: "2026-11-18", assignee: people.assignee.name });
  const run = new RunPage(operator);
  await run.openFromRuns(title);
  await expect(run.status).toContainText("Waiting");
  return run;
}

/** The assignee, in a browser of their own, answers the Auditor's question about `title`. */
async function answerAuditor(browser: Parameters<typeof signedInPage>[0], title: string) {
  const assignee = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(assignee);
  await question.openFromInbox(title);
  await question.answer.fill(EXPLANATION);
  await question.send();
  await expect(assignee.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
  return { assignee, question };
}

test("an operator watches a review's run update live while the assignee answers, through to completion", async ({ browser }) => {
  test.setTimeout(90_000);
  const title = uniqueTitle("Client dinner");
  const run = await watchNewReview(browser, title);
  // The marker is gone after any reload: the updates below must arrive without one.
  await run.page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  await expect(run.entriesOf("question")).toHaveCount(1);
  await expect(run.entriesOf("question").first()).toContainText("What was the 212.40 USD charge at Casa Lisboa");
  await expect(run.entriesOf("turn").first()).toContainText(/Auditor\s*model turn · \d/);
  await expect(run.entriesOf("turn").first()).toContainText("called ask");
  await expect(run.entriesOf("slot-opened")).toContainText(`from ${people.assignee.name}`);
  await expect(run.status).toContainText(`waiting on ${people.assignee.name}`);

  const { assignee, question } = await answerAuditor(browser, title);

  await expect(run.entriesOf("answer").first()).toContainText(`from ${people.assignee.name} after waiting`);
  await expect(run.entriesOf("answer").first()).toContainText(EXPLANATION);
  // Approved: the workflow asks the filer how to be paid back, with its options.
  await expect(run.entriesOf("question").nth(1)).toContainText(`asked ${people.assignee.name}: Reimbursement`);
  await expect(run.entriesOf("question").nth(1)).toContainText("options: bank_transfer · payroll · card_refund");
  await expect(run.context.locator(".fact").filter({ hasText: "Decision" })).toContainText("approved");

  await question.openFromInbox(title);
  await assignee.getByRole("radio", { name: /Bank transfer/ }).check();
  // A required yes/no starts unanswered: No is chosen, not sent by default.
  await assignee.getByRole("group", { name: "Is it urgent?" }).getByLabel("No").check();
  await assignee.getByLabel("Who attended?").fill("Sam, the Acme procurement team");
  await question.send();
  await expect(assignee.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
  // What they answered stays on the question, in the words they chose it in.
  const answeredValues = assignee.getByRole("status").getByLabel("What was answered");
  await expect(answeredValues).toContainText("Bank transfer");
  await expect(answeredValues).toContainText("Sam, the Acme procurement team");
  await expect(answeredValues).not.toContainText("bank_transfer");

  await expect(run.status).toContainText("Completed");
  // A run that ended is completed, whatever its outcome — never "successfully".
  await expect(run.entriesOf("completed")).toContainText("Completed");
  await expect(run.entriesOf("completed")).not.toContainText("successfully");
  await expect(run.entriesOf("answer")).toHaveCount(2);
  await expect(run.entriesOf("answer").nth(1)).toContainText("Bank transfer");
  await expect(run.entriesOf("answer").nth(1)).not.toContainText("bank_transfer");
  expect(await run.page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

  await run.page.screenshot({ path: "/tmp/run-page.png", fullPage: true });
  await assignee.context().close();
  await run.page.context().close();
});

test("the person's answer shows as an answer, never as a model turn or in who handed to whom", async ({ browser }) => {
  const title = uniqueTitle("Client dinner");
  const run = await watchNewReview(browser, title);
  const { assignee } = await answerAuditor(browser, title);
  await expect(run.entriesOf("resumed")).toHaveCount(1);
  const kinds = await run.kinds();
  const answerAt = kinds.indexOf("answer");
  // Between the park and the resume there is the wait and the answer: no turn.
  expect(kinds.slice(kinds.indexOf("parked"), kinds.indexOf("resumed") + 1)).toEqual(["parked", "state", "slot-opened", "answer", "resumed"]);
  expect(answerAt).toBeGreaterThan(0);
  for (const turn of await run.entriesOf("turn").locator(".run-entry-body").allTextContents()) {
    expect(turn).toMatch(/^Auditor/);
    expect(turn).not.toContain(people.assignee.name);
  }
  await expect(run.graph.getByTestId("handoff-agent")).toHaveCount(1);
  await expect(run.graph.getByTestId("handoff-agent")).toHaveText("Auditor");
  await expect(run.graph).not.toContainText(people.assignee.name);
  await assignee.context().close();
  await run.page.context().close();
});
