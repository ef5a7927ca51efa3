import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage } from "./pages/runs-page";

const QUESTION = "Was the rollback tested?";

test("a yes-or-no question is a switch that starts at No and says Yes once turned on from the keyboard", async ({ browser }) => {
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).gotoStart("DeployApproval");
  const toggle = operator.getByRole("switch", { name: QUESTION });
  const state = operator.locator(".yes-no-state");
  await expect(toggle).not.toBeChecked();
  await expect(state).toHaveText("No", { useInnerText: true });
  await toggle.focus();
  await operator.keyboard.press("Space");
  await expect(toggle).toBeChecked();
  await expect(state).toHaveText("Yes", { useInnerText: true });
  await operator.context().close();
});

test("without JavaScript the switch posts yes, and a refused form brings it back on", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(people.operator.email);
  await page.getByLabel("Password").fill(people.operator.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/runs/);
  await page.goto("/runs?start=DeployApproval");
  await page.getByRole("switch", { name: QUESTION }).check();
  await expect(page.locator(".yes-no-state")).toHaveText("Yes", { useInnerText: true });
  // The service is left empty: the form is refused, and comes back with what was chosen.
  await page.getByRole("button", { name: "Ask for approval" }).click();
  await expect(page.getByText("Name the service to deploy, like billing-api.").first()).toBeVisible();
  await expect(page.getByRole("switch", { name: QUESTION })).toBeChecked();
  await expect(page.locator(".yes-no-state")).toHaveText("Yes", { useInnerText: true });
  await context.close();
});
