import { z } from "zod";
import { expect, people, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey, openAsAssignee, untilAsked } from "./support/agent-keys";

const Deploy = z.object({
  decision: z.enum(["approve", "reject"]).describe("Deploy the release now?"),
  windowHours: z.int().min(1).max(12).describe("How many hours may the rollout take?"),
  notify: z.boolean().default(false).describe("Tell the on-call team?"),
  note: z.string().optional().describe("Anything else?"),
});

test("the typed client asks a person with a zod schema, the person answers its generated form, and ask resolves with the typed value", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const parley = clientFor(baseURL!, await makeAgentKey(browser));
  const title = uniqueTitle("Deploy billing 4.2?");
  const stop = new AbortController();
  const asking = parley.ask({ to: people.assignee.email, title, body: "The canary is green.", schema: Deploy, within: { hours: 4 }, signal: stop.signal });
  asking.catch(() => {});
  try {
    await untilAsked(parley, title);
    const page = await openAsAssignee(browser, title);
    await expect(page.getByText("asks over the API")).toBeVisible();
    await page.getByRole("group", { name: "Deploy the release now?" }).getByRole("radio", { name: "approve" }).check();
    await page.getByLabel("How many hours may the rollout take?").fill("3");
    await page.getByLabel("Tell the on-call team?").check();
    await new QuestionPage(page).send();
    await expect(page.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();

    const answer = await asking;
    expect(answer).toMatchObject({
      ok: true,
      value: { decision: "approve", windowHours: 3, notify: true },
      ask: { title, status: "answered", answered_by: { email: people.assignee.email, name: people.assignee.name } },
    });
    if (!answer.ok) throw new Error(`expected an answer, got nothing (${answer.reason})`);
    // Typed by the schema: these compile only because `value` is z.output<typeof Deploy>.
    const decision: "approve" | "reject" = answer.value.decision;
    const hours: number = answer.value.windowHours;
    expect([decision, hours]).toEqual(["approve", 3]);
    expect(answer.value).not.toHaveProperty("note");
    await page.context().close();
  } finally {
    stop.abort();
  }
});
