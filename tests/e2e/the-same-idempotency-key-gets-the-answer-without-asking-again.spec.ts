import { randomUUID } from "node:crypto";
import { expect, people, test } from "./fixtures";
import { QuestionPage } from "./pages/question-page";
import { uniqueTitle } from "./pages/runs-page";
import { clientFor, makeAgentKey, openAsAssignee, untilAsked } from "./support/agent-keys";

test("asking again with the same idempotency key after the answer came (a caller that restarted) gets that answer, and asks nobody again", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const key = await makeAgentKey(browser);
  const title = uniqueTitle("What should the release note say?");
  const idempotencyKey = `release-note-${randomUUID()}`;
  const request = { to: people.assignee.email, title, idempotencyKey };

  // The first caller asks, then stops waiting (its process ended) before the person answers.
  const first = clientFor(baseURL!, key);
  const stop = new AbortController();
  const abandoned = first.ask({ ...request, signal: stop.signal });
  await untilAsked(first, title);
  stop.abort(new Error("the caller went away"));
  await expect(abandoned).rejects.toThrow("the caller went away");

  const page = await openAsAssignee(browser, title);
  await new QuestionPage(page).answer.fill("Invoices are twice as fast.");
  await new QuestionPage(page).send();
  await expect(page.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();

  // A new process, the same key: the answer, at once, from the same ask.
  const again = clientFor(baseURL!, key);
  const started = Date.now();
  const answer = await again.ask(request);
  expect(answer).toMatchObject({ ok: true, value: "Invoices are twice as fast.", ask: { title, status: "answered" } });
  expect(Date.now() - started).toBeLessThan(5_000);
  const replayed = await again.createAsk({ to: people.assignee.email, title }, { idempotencyKey });
  expect(replayed).toMatchObject({ created: false, ask: { id: answer.ask.id } });

  // One ask, one question: nothing new in the person's inbox, none open for the key.
  const asks = (await again.listAsks({ limit: 100 })).data.filter((ask) => ask.title === title);
  expect(asks.map((ask) => ask.id)).toEqual([answer.ask.id]);
  await page.goto("/inbox?view=assigned");
  await expect(page.getByTestId("inbox-row").filter({ hasText: title })).toHaveCount(0);
  await page.context().close();
});
