import { expect, people, signedInPage, test } from "./fixtures";
import { makeAgentKey } from "./support/agent-key";

test("? lists the keys of the page in front of the person, and on a question a goes to the answer and u back to the inbox", async ({ browser, request }) => {
  const key = await makeAgentKey(browser, `Keys bot ${Date.now()}`);
  const created = await request.post("/api/v1/asks", {
    headers: { authorization: `Bearer ${key.secret}` },
    data: { to: people.otherAssignee.email, title: `Move the standup to 10:00? ${Date.now()}` },
  });
  expect(created.status()).toBe(201);
  const questionPath = new URL(((await created.json()) as { url: string }).url).pathname;

  const page = await signedInPage(browser, people.otherAssignee);
  await page.goto("/inbox");
  await page.locator("body").press("?");
  const keys = page.getByRole("dialog", { name: "Keys on this page" });
  await expect(keys).toBeVisible();
  await expect(keys.getByRole("term")).toContainText(["?", "/", "j k", "Enter"]);
  await page.keyboard.press("Escape");
  await expect(keys).toBeHidden();

  await page.goto(questionPath);
  await page.locator("body").press("?");
  await expect(keys.getByRole("definition")).toContainText(["Show these keys", "Back to the inbox", "Go to the answer", "Decline: say you can't answer it"]);
  await page.keyboard.press("Escape");

  await page.locator("body").press("a");
  await expect(page.getByRole("textbox", { name: "Your answer" })).toBeFocused();
  // A key typed into the answer is the answer's, not a shortcut.
  await page.keyboard.type("u");
  await expect(page.getByRole("textbox", { name: "Your answer" })).toHaveValue("u");
  await expect(page).toHaveURL(questionPath);

  await page.getByRole("textbox", { name: "Your answer" }).blur();
  await page.locator("body").press("u");
  await page.waitForURL(/\/inbox$/);
  await page.context().close();
});
