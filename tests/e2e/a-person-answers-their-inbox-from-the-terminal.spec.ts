import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, people, signedInPage, test } from "./fixtures";
import { uniqueTitle } from "./pages/runs-page";
import { makeAgentKey } from "./support/agent-key";
import { makePersonalToken } from "./support/personal-token";

const PARLEY = path.resolve(import.meta.dirname, "..", "..", "bin", "parley.mjs");

/** Runs the `parley` command from `cwd` with pipes (nobody at a terminal); its exit code and output. */
function parley(args: string[], options: { cwd: string; env: Record<string, string> }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...options.env };
    // The command talks to the server under test alone: no database of its own, no CI's non-interactive mark.
    delete env.CI;
    delete env.FORCE_COLOR;
    delete env.DATABASE_URL;
    delete env.PARLEY_URL;
    delete env.PARLEY_TOKEN;
    const child = spawn(process.execPath, [PARLEY, ...args], { cwd: options.cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

/** A questionnaire an agent sends with its ask. */
const RELEASE_SCHEMA = {
  type: "object",
  properties: {
    decision: { description: "Ship the release?", oneOf: [{ const: "ship", title: "Ship" }, { const: "hold", title: "Hold" }] },
    window_hours: { type: "integer", description: "How many hours may it take?", minimum: 1, maximum: 12, errorMessage: "Between 1 and 12 hours, please." },
  },
  required: ["decision", "window_hours"],
};

/** Asks Sam over the API with the agent key; the ask's id and its question's id. */
async function askSam(request: APIRequestContext, agentKey: string, title: string) {
  const response = await request.post("/api/v1/asks", {
    headers: { authorization: `Bearer ${agentKey}` },
    data: { to: people.assignee.email, title, response_schema: RELEASE_SCHEMA },
  });
  expect(response.status()).toBe(201);
  const ask = (await response.json()) as { id: string; status: string; url: string };
  expect(ask.status).toBe("open");
  return { askId: ask.id, questionId: ask.url.split("/").at(-1)!, title };
}

async function askStatus(request: APIRequestContext, agentKey: string, askId: string) {
  return (await (await request.get(`/api/v1/asks/${askId}`, { headers: { authorization: `Bearer ${agentKey}` } })).json()) as { status: string; reason: string | null; answer: unknown };
}

test("a person logs in at the terminal with a token from their profile, lists their inbox and answers over the API", async ({ browser, request, baseURL }) => {
  test.setTimeout(120_000);
  const folder = mkdtempSync(path.join(tmpdir(), "parley-e2e-"));
  const env = { PARLEY_CONFIG: path.join(folder, "config.json") };
  try {
    // An admin makes an agent key; Sam makes a token for the terminal on his profile.
    const agentKey = (await makeAgentKey(browser, uniqueTitle("Release bot"))).secret;
    const token = await makePersonalToken(browser, people.assignee, uniqueTitle("Sam's terminal"));
    const sam = await signedInPage(browser, people.assignee);

    const title = uniqueTitle("Ship billing 4.2?");
    const { askId, questionId } = await askSam(request, agentKey, title);

    const login = await parley(["login", "--url", baseURL!, "--token", token], { cwd: folder, env });
    expect(login.stderr).toBe("");
    expect(login).toMatchObject({ code: 0, stdout: expect.stringContaining(`as ${people.assignee.name} (${people.assignee.email})`) });
    expect(statSync(env.PARLEY_CONFIG).mode & 0o777).toBe(0o600);

    // The inbox shows each question's short id: the beginning of its id no other open question has.
    const inbox = await parley(["inbox"], { cwd: folder, env });
    expect(inbox.code).toBe(0);
    const row = inbox.stdout.split("\n").find((line) => line.endsWith(title))!;
    const shortId = row.split(/\s+/)[0]!;
    expect(questionId.startsWith(shortId)).toBe(true);

    // One field refused in the asker's own words first, then a good answer.
    writeFileSync(path.join(folder, "too-long.json"), JSON.stringify({ decision: "ship", window_hours: 40 }));
    writeFileSync(path.join(folder, "answers.json"), JSON.stringify({ decision: "1", window_hours: "4" }));
    const refused = await parley(["answer", shortId, "--answers", "too-long.json"], { cwd: folder, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("window_hours: Between 1 and 12 hours, please.");
    expect(refused.stderr).toContain("attempt 2 of 3");
    const answered = await parley(["answer", questionId, "--answers", "answers.json"], { cwd: folder, env });
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout)).toEqual({ decision: "ship", window_hours: 4 });

    await expect.poll(async () => (await askStatus(request, agentKey, askId)).status).toBe("answered");
    expect((await askStatus(request, agentKey, askId)).answer).toEqual({ decision: "ship", window_hours: 4 });
    await sam.goto(`/questions/${questionId}`);
    await expect(sam.getByRole("status").filter({ hasText: "You answered this" })).toBeVisible();
    expect((await parley(["inbox"], { cwd: folder, env })).stdout).not.toContain(questionId);

    // Nobody at the terminal (a pipe): the question stays open in Sam's inbox, and the command exits 3 saying so.
    const second = await askSam(request, agentKey, uniqueTitle("Ship billing 4.3?"));
    const nobody = await parley(["answer", second.questionId], { cwd: folder, env });
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toContain("Nobody is at this terminal (stdin is not a terminal): no answer was given, and the question is still open.");
    expect(await askStatus(request, agentKey, second.askId)).toMatchObject({ status: "open" });
    await sam.goto(`/inbox?view=assigned&q=${encodeURIComponent(second.title)}`);
    await expect(sam.locator(`a[href="/questions/${second.questionId}"]`).first()).toBeVisible();

    // Sam means it: by the ask's id, --nothing ends it unanswered — the asker gets nothing, reason non-interactive.
    const ended = await parley(["answer", second.askId, "--nothing"], { cwd: folder, env });
    expect(ended.code).toBe(0);
    expect(await askStatus(request, agentKey, second.askId)).toMatchObject({ status: "nothing", reason: "non-interactive" });
    await sam.goto(`/questions/${second.questionId}`);
    await expect(sam.getByRole("status").filter({ hasText: "nobody was at the terminal" })).toBeVisible();

    expect(await parley(["logout"], { cwd: folder, env })).toMatchObject({ code: 0 });
    expect(await parley(["inbox"], { cwd: folder, env })).toMatchObject({ code: 1, stderr: expect.stringContaining("parley login") });
    await sam.context().close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
