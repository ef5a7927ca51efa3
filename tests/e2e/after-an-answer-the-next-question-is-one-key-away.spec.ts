import { expect, people, signedInPage, test } from "./fixtures";
import { makeAgentKey } from "./support/agent-key";

test("after an answer, the page names the next question waiting in the inbox and n opens it", async ({ browser, request }) => {
  const key = await makeAgentKey(browser, `Ops bot ${Date.now()}`);
  const ask = async (title: string, dueInSeconds: number) => {
    const created = await request.post("/api/v1/asks", { headers: { authorization: `Bearer ${key.secret}` }, data: { to: people.otherAssignee.email, title, due_in_seconds: dueInSeconds } });
    expect(created.status()).toBe(201);
    return new URL(((await created.json()) as { url: string }).url).pathname;
  };
  // Due soonest of everything in Priya's inbox, so each is the next one there.
  const first = await ask(`Rotate the staging certificate? ${Date.now()}`, 60);
  const second = await ask(`Renew the payments domain? ${Date.now()}`, 90);

  const page = await signedInPage(browser, people.otherAssignee);
  await page.goto(first);
  await page.getByRole("textbox", { name: "Your answer" }).fill("Yes, tonight.");
  await page.getByRole("button", { name: "Send answer" }).click();
  // The soonest due of what else waits for Priya: the second ask, unless another test left one due sooner.
  const next = page.getByRole("navigation", { name: "What next" }).getByRole("link").first();
  await expect(next).toBeVisible();
  const href = await next.getAttribute("href");
  expect(href).toMatch(/^\/questions\//);
  if (href === second) await expect(next).toHaveText(/^Renew the payments domain\?/);
  await page.locator("body").press("n");
  await page.waitForURL((url) => url.pathname === href);
  await expect(page.getByRole("button", { name: "Send answer" })).toBeVisible();
  await page.context().close();
});
