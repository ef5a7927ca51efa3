import { expect, people, signedInPage, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { RunPage } from "./pages/run-page";
import { choosePerson, RunsPage } from "./pages/runs-page";

/** A service name no other test uses (lower-case letters, digits and dashes, as the start schema asks). */
function uniqueService(): string {
  return `svc-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

test("the deployment approval, registered by one line, is started from its generated form, answered in the inbox, watched on its run page and timed on the SLA page", async ({ browser }) => {
  test.setTimeout(90_000);
  const service = uniqueService();
  const title = `Deploy ${service} 2.15.0 to production`;

  const operator = await signedInPage(browser, people.operator);
  const runs = new RunsPage(operator);
  await runs.gotoStart("DeployApproval");
  await expect(operator.getByRole("heading", { name: "Start: Deployment approval" })).toBeVisible();
  await operator.getByLabel("Which service?").fill(service);
  await operator.getByLabel("Which version?").fill("2.15.0");
  await operator.getByRole("group", { name: "Where to?" }).getByRole("radio", { name: "production" }).check();
  await operator.getByLabel("What changes?").fill("Invoices round per line instead of per total.");
  await expect(operator.getByLabel("Was the rollback tested?")).not.toBeChecked();
  await choosePerson(operator, "Who approves it?", people.assignee.name);
  await operator.getByRole("button", { name: "Ask for approval" }).click();
  await expect(runs.started(title)).toBeVisible();

  // The release checker asks the approver, in its own words, with the workflow's facts beside the question.
  const approver = await signedInPage(browser, people.assignee);
  const question = new QuestionPage(approver);
  await question.openFromInbox(title);
  await expect(approver.getByRole("heading", { level: 1 })).toContainText(`The rollback of ${service} 2.15.0 was not tested.`);
  const context = approver.getByRole("complementary", { name: "Context" });
  await expect(context.getByText(service, { exact: true })).toBeVisible();
  await expect(context.getByText("production", { exact: true })).toBeVisible();

  // The admin sees the wait on the SLA page, under the workflow's label.
  const admin = await signedInPage(browser, people.admin);
  await admin.goto("/admin/sla");
  const wait = admin.getByTestId("open-slot").filter({ hasText: title });
  await expect(wait).toContainText("Deployment approval · Waiting");
  await expect(wait.getByTestId("waiting-on")).toContainText(people.assignee.name);
  await expect(admin.getByLabel("Workflow").locator("option", { hasText: "Deployment approval" })).toHaveAttribute("value", "DeployApproval");
  await admin.context().close();

  await question.answer.fill("Redeploy 2.14.0 from the release pipeline; it takes ten minutes and Sam runs it.");
  await question.send();
  await expect(approver.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();

  // Then the flow asks for the verdict as a questionnaire, one question per field.
  await approver.goto("/inbox?view=assigned");
  const verdict = approver.getByTestId("inbox-row").filter({ hasText: `Approve ${service} 2.15.0 to production?` });
  await expect(verdict).toBeVisible();
  await verdict.getByRole("link").first().click();
  await approver.waitForURL(/\/questions\//);
  await approver.getByRole("radio", { name: /^Approve/ }).check();
  await approver.getByLabel(/On which day may it go out/).fill("2026-12-10");
  await approver.getByLabel(/Which teams should hear of it/).fill("billing, support");
  await question.send();
  await expect(approver.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
  await approver.context().close();

  // The operator's run page follows it to the end, under the workflow's own title.
  const run = new RunPage(operator);
  await run.openFromRuns(title);
  await expect(operator.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(run.status).toContainText("Completed");
  await expect(run.status).toContainText("Approved");
  await operator.context().close();
});
