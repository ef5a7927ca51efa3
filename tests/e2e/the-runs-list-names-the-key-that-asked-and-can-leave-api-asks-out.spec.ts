import { expect, people, signedInPage, test } from "./fixtures";
import { uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey } from "./support/agent-keys";

test("the runs list says which agent key started an API ask, and leaves API asks out when asked to", async ({ browser, baseURL }) => {
  const key = await makeAgentKey(browser, "Refund bot");
  const parley = clientFor(baseURL!, key);
  const title = uniqueTitle("Refund order 4471?");
  await parley.createAsk({ to: people.assignee.email, title });

  const operator = await signedInPage(browser, people.operator);
  await operator.goto("/runs");
  const row = operator.getByTestId("run-row").filter({ hasText: title });
  await expect(row.getByRole("cell").filter({ hasText: "the key" })).toHaveText(`the key “${key.name}”`);

  await operator.getByTestId("workflow-all-but-api-asks").click();
  await expect(operator.getByTestId("workflow-all-but-api-asks")).toHaveAttribute("aria-current", "page");
  await expect(operator.getByTestId("run-row").first()).toBeVisible();
  await expect(operator.getByTestId("run-row").filter({ hasText: title })).toHaveCount(0);
  await operator.context().close();
});
