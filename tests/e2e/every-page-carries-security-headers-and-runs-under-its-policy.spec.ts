import type { Page } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { RunsPage, uniqueTitle } from "./pages/runs-page";

/** What the browser said went wrong while a page loaded: errors, and any Content-Security-Policy refusal. */
function watchForTrouble(page: Page): string[] {
  const trouble: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /content security policy/i.test(message.text())) trouble.push(message.text());
  });
  page.on("pageerror", (error) => trouble.push(error.message));
  return trouble;
}

async function expectSecuredPage(page: Page, path: string) {
  const trouble = watchForTrouble(page);
  const response = await page.goto(path);
  expect(response, path).not.toBeNull();
  const headers = response!.headers();
  expect(headers["content-security-policy"], path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"], path).not.toContain("unsafe-inline");
  expect(headers["x-content-type-options"], path).toBe("nosniff");
  expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
  // Served over http here: no HSTS, which a browser would ignore anyway.
  expect(headers["strict-transport-security"], path).toBeUndefined();
  // The page's own scripts ran under the policy: React took over the page (the live updates connect through it).
  await page.waitForLoadState("networkidle").catch(() => undefined);
  // A missing page is answered with a 404, which the browser reports as such; nothing else may show.
  expect(trouble.filter((text) => !(path === "/no-such-page" && text.includes("status of 404"))), path).toEqual([]);
}

test("the sign-in page and a page that does not exist carry the headers, and nothing is refused by the policy", async ({ page }) => {
  await expectSecuredPage(page, "/login");
  await expectSecuredPage(page, "/no-such-page");
});

test("every page of every role carries the headers, and its scripts run under its policy", async ({ browser }) => {
  test.setTimeout(120_000);
  const title = uniqueTitle("Headers check");
  const operator = await signedInPage(browser, people.operator);
  await new RunsPage(operator).startReview({ title, merchant: "Nordic Rail", amount: "1250.00", incurredOn: "2026-11-02", assignee: people.assignee.name });
  const assignee = await signedInPage(browser, people.assignee);
  await assignee.goto("/inbox?view=assigned");
  const question = assignee.getByTestId("inbox-row").filter({ hasText: title }).getByRole("link").first();
  await expect(question).toBeVisible();
  const questionPath = new URL((await question.getAttribute("href"))!, "http://x").pathname;
  await operator.goto("/runs");
  const runPath = (await new RunsPage(operator).row(title).getByRole("link", { name: title }).getAttribute("href"))!;
  const admin = await signedInPage(browser, people.admin);

  for (const path of ["/inbox", questionPath, "/profile", "/notifications"]) await expectSecuredPage(assignee, path);
  for (const path of ["/runs", "/runs?start=DeployApproval", runPath]) await expectSecuredPage(operator, path);
  for (const path of ["/admin/sla", "/admin/people", "/admin/groups", "/admin/api-keys"]) await expectSecuredPage(admin, path);
  for (const page of [operator, assignee, admin]) await page.context().close();
});

test("a page gets a new nonce each time it is served", async ({ request }) => {
  const nonceOf = async () => /'nonce-([^']+)'/.exec((await request.get("/login")).headers()["content-security-policy"] ?? "")?.[1];
  const [first, second] = [await nonceOf(), await nonceOf()];
  expect(first).toBeTruthy();
  expect(second).not.toBe(first);
});

test("the API answers with nosniff and a policy that lets nothing load or run", async ({ request }) => {
  const response = await request.get("/api/v1/asks");
  expect(response.status()).toBe(401);
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  expect(response.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
});

test("over https (as a proxy in front says) responses ask browsers to keep to https", async ({ request }) => {
  const response = await request.get("/login", { headers: { "x-forwarded-proto": "https" } });
  expect(response.headers()["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  expect(response.headers()["content-security-policy"]).toContain("upgrade-insecure-requests");
});
