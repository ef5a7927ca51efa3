import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { RunPage } from "./pages/run-page";
import { makeAgentKey } from "./support/agent-key";

const PHONE = { width: 390, height: 844 };

/** Console errors and uncaught exceptions on `page`, from now on. */
function errorsOn(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

/** A team question over the API that Sam takes and gives back `times` times: a run of two events more each time. */
async function longRun(browser: Browser, request: APIRequestContext, times: number): Promise<string> {
  const key = await makeAgentKey(browser, `Long run bot ${Date.now()}`);
  const title = `Keep the office plants watered? ${Date.now()}`;
  const created = await request.post("/api/v1/asks", { headers: { authorization: `Bearer ${key.secret}` }, data: { to: { group: "finance" }, title, due_in_seconds: 3600 } });
  expect(created.status()).toBe(201);
  const sam = await signedInPage(browser, people.assignee);
  await sam.goto(new URL(((await created.json()) as { url: string }).url).pathname);
  for (let time = 0; time < times; time++) {
    await sam.getByRole("button", { name: "I'll take it" }).click();
    await sam.getByRole("button", { name: "Give it back" }).click();
  }
  await expect(sam.getByRole("button", { name: "I'll take it" })).toBeVisible();
  await sam.context().close();
  return title;
}

test("a long run's page shows its latest events and older ones by a link, even without JavaScript, and fits a phone", async ({ browser, request }) => {
  test.setTimeout(240_000);
  const title = await longRun(browser, request, 30);

  const operator = await signedInPage(browser, people.operator);
  await operator.setViewportSize({ width: 1280, height: 900 });
  const errors = errorsOn(operator);
  const run = new RunPage(operator);
  await run.openFromRuns(title);
  const url = new URL(operator.url()).pathname;
  await expect(run.olderEvents).toHaveText(/^Show \d+ older events?$/);
  expect(await run.entries.count()).toBeLessThanOrEqual(50);
  await expect(run.entriesOf("started")).toHaveCount(0);
  await expect(run.latestEvents).toHaveCount(0);
  await operator.screenshot({ path: "/tmp/run-page-long-1280.png", fullPage: true });

  await run.olderEvents.click();
  await operator.waitForURL(/\?before=\d+/);
  await expect(run.entriesOf("started")).toHaveCount(1);
  await expect(run.latestEvents).toBeVisible();
  await run.latestEvents.click();
  await operator.waitForURL((address) => address.search === "");
  await expect(run.olderEvents).toBeVisible();

  // A cursor the page does not make is a message, never an error.
  const bad = await operator.goto(`${url}?before=not-an-event`);
  expect(bad?.status()).toBe(200);
  await expect(operator.getByTestId("run-events-cursor-invalid")).toBeVisible();
  // The page stays small (the events shown, not the run's every event).
  expect((await (await operator.request.get(url)).body()).byteLength).toBeLessThan(200_000);
  expect(errors).toEqual([]);
  await operator.context().close();

  // On a phone with JavaScript off: the plain link still pages, and nothing scrolls sideways.
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
  const phone = await context.newPage();
  await phone.goto("/login");
  await phone.getByLabel("Email").fill(people.operator.email);
  await phone.getByLabel("Password").fill(people.operator.password);
  await phone.getByRole("button", { name: "Sign in" }).click();
  await phone.waitForURL((address) => address.pathname !== "/login");
  await phone.goto(url);
  const onPhone = new RunPage(phone);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await phone.screenshot({ path: "/tmp/run-page-long-390.png", fullPage: true });
  await onPhone.olderEvents.click();
  await phone.waitForURL(/\?before=\d+/);
  await expect(onPhone.entriesOf("started")).toHaveCount(1);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await phone.screenshot({ path: "/tmp/run-page-long-older-390.png", fullPage: true });
  await context.close();
});
