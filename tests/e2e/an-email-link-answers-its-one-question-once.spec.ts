import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { DEMO_USERS } from "@/lib/demo-people";
import { parseMail } from "@/tests/integration/notifiers/support/mime";
import { startSmtpSink } from "@/tests/integration/notifiers/support/smtp-sink";
import { expect, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PORT = Number(process.env.PARLEY_E2E_PORT ?? "3100") + 7;
const BASE = `http://127.0.0.1:${PORT}`;
const SAM = DEMO_USERS.find((person) => person.email === "sam@parley.test")!;

/**
 * A Parley of its own, on the build the suite made, that emails through the tests' SMTP sink (the
 * suite's server sends no email). Embedded database, demo mode, so it has the demo people and key.
 */
async function startEmailingServer(smtpPort: number): Promise<{ child: ChildProcess; output: () => string; stop: () => Promise<void> }> {
  const dataDir = path.join(ROOT, ".test-data", `e2e-email-${PORT}`);
  rmSync(dataDir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(PORT), DATABASE_URL: "", PARLEY_DATA_DIR: dataDir, PARLEY_PUBLIC_URL: BASE };
  delete env.AUTH_SECRET;
  Object.assign(env, { PARLEY_SMTP_HOST: "127.0.0.1", PARLEY_SMTP_PORT: String(smtpPort), PARLEY_SMTP_SECURE: "none", PARLEY_SMTP_FROM: "Parley <parley@parley.test>" });
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(PORT), "-H", "127.0.0.1"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      const response = await fetch(`${BASE}/login`);
      await response.arrayBuffer();
      if (response.ok && /Demo API key: (pk_\S+)/.test(output)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the emailing server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    child,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

test("the link in a question's email answers that question, once, and opens nothing else", async ({ browser }) => {
  test.setTimeout(180_000);
  const sink = await startSmtpSink();
  const server = await startEmailingServer(sink.port);
  try {
    const key = /Demo API key: (pk_\S+)/.exec(server.output())![1]!;
    const ask = async (title: string) => {
      const response = await fetch(`${BASE}/api/v1/asks`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ to: SAM.email, title, due_in_seconds: 3600 }),
      });
      expect(response.status).toBe(201);
      // The question's page is its url (the ask's id is another).
      return ((await response.json()) as { url: string }).url.split("/").at(-1)!;
    };
    const questionId = await ask("Ship the mobile release tonight?");
    const otherId = await ask("Rotate the on-call schedule?");

    // Read the link out of the email Sam received about the first question.
    // (The demo's own questions are emailed too.)
    const emailAbout = (text: string) =>
      sink.messages.filter((message) => message.recipients.includes(SAM.email)).map((message) => parseMail(message.data).text ?? "").find((body) => body.includes(text));
    await expect.poll(() => emailAbout("Ship the mobile release tonight?"), { timeout: 30_000 }).toBeDefined();
    const link = /(https?:\/\/\S+\/a\/[A-Za-z0-9_-]{43})/.exec(emailAbout("Ship the mobile release tonight?")!)![1]!;

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole("button", { name: "Open the question" }).click();
    await expect(page).toHaveURL(`${BASE}/questions/${questionId}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Ship the mobile release tonight?");
    await expect(page.getByTestId("limited-session")).toBeVisible();
    await page.getByRole("textbox").first().fill("Yes, after the smoke tests pass.");
    await page.getByRole("button", { name: "Send answer" }).click();
    await expect(page.getByRole("status").filter({ hasText: /Your answer was taken\.|You answered this/ })).toBeVisible();

    // Only that question: another question, the inbox and the live events refuse the session.
    await page.goto(`${BASE}/questions/${otherId}`);
    await expect(page).toHaveURL(/\/login\?callbackUrl=/);
    await page.goto(`${BASE}/inbox`);
    await expect(page).toHaveURL(/\/login\?callbackUrl=%2Finbox/);
    expect((await page.request.get(`${BASE}/api/events`)).status()).toBe(401);

    // Once: following it again says it was used, and offers sign-in.
    await page.goto(link);
    await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("This link was already used: each link works once. Sign in to see the question.");
    await page.getByRole("link", { name: "Sign in" }).click();
    await new LoginPage(page).signIn(SAM.email, SAM.password);
    await expect(page).toHaveURL(`${BASE}/questions/${questionId}`);
    await expect(page.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
    await context.close();
  } finally {
    await server.stop();
    await sink.close();
  }
});
