import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { DEPLOY_SCHEMA } from "../asks/ask-fixture";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "../questions-api/questions-api-fixture";
import { servePersonApi } from "./person-api-server";
import { PtySession } from "./terminal-run";

/*
 * `parley answer <id>` in a real pseudo-terminal against a server's person API: the same prompts
 * as the local questionnaire, the server's refusals on their fields, the refused field asked again.
 */
describe("parley at the prompt", () => {
  let fixture: QuestionsApiFixture | undefined;
  let server: { url: string; close(): Promise<void> } | undefined;
  afterEach(async () => {
    await server?.close();
    await fixture?.close();
    server = fixture = undefined;
  });

  async function session(request: Record<string, unknown>) {
    fixture = await createQuestionsApiFixture("pglite");
    server = await servePersonApi(fixture.database.db, fixture.api);
    const { secret } = await createApiKey(fixture.database.db, { kind: "personal", name: "The terminal", by: fixture.ada.id, userId: fixture.ada.id });
    const asked = await fixture.ask(request);
    // PARLEY_CONFIG points nowhere: the environment alone says which server and token.
    const pty = new PtySession(["answer", asked.questionId], { env: { PARLEY_URL: server.url, PARLEY_TOKEN: secret, PARLEY_CONFIG: "/nonexistent/parley.json" } });
    return { ...asked, pty };
  }

  it("asks each field, shows a refusal in the schema's words with the attempt, asks only that field again, and prints the value", async () => {
    const { askId, pty } = await session({ title: "Deploy billing 4.2?", response_schema: DEPLOY_SCHEMA, context: { service: "billing" } });
    await pty.waitFor("Question 1 of 3: Deploy now?");
    expect(pty.screen).toContain("Deploy billing 4.2?");
    expect(pty.screen).toContain("Release bot, over the API, asks.");
    expect(pty.screen).toContain("service: billing");
    expect(pty.screen).toContain("1. Approve");
    pty.type("1");
    await pty.waitFor("Question 2 of 3: How many hours may it take?");
    pty.type("40");
    await pty.waitFor("Question 3 of 3: Tell the on-call team?");
    expect(pty.screen).toContain("(y/n)");
    expect(pty.screen).toContain("[no] or a dash for that");
    pty.type("-");
    await pty.waitFor("attempt 2 of 3");
    expect(pty.screen).toContain("How many hours may it take?: Between 1 and 12 hours, please.");
    const afterRefusal = () => pty.screen.slice(pty.screen.indexOf("attempt 2 of 3"));
    await pty.waitFor("Question 2 of 3", "attempt 2 of 3");
    expect(afterRefusal()).not.toContain("Question 1 of 3");
    pty.type("4");
    expect(await pty.exited()).toBe(0);
    expect(pty.screen.replace(/\s+/g, " ")).toContain('"decision": "approve", "window_hours": 4, "notify": false');
    expect(await fixture!.service.get(fixture!.key, askId)).toMatchObject({ status: "answered", attempts: { refused: 1 } });
  }, 60_000);

  it("says when the next refusal is the last, and when it was, that the question closed (exit 2)", async () => {
    const { askId, pty } = await session({ title: "Deploy?", response_schema: DEPLOY_SCHEMA, attempts: 2 });
    await pty.waitFor("Question 1 of 3");
    pty.type("approve");
    await pty.waitFor("Question 2 of 3");
    pty.type("13");
    await pty.waitFor("Question 3 of 3");
    pty.type("y");
    await pty.waitFor("This is the last attempt: if this answer is refused too, the question closes without an answer.");
    expect(pty.screen).toContain("attempt 2 of 2");
    await pty.waitFor("Question 2 of 3", "attempt 2 of 2");
    pty.type("0");
    await pty.waitFor("That was the last attempt");
    expect(await pty.exited()).toBe(2);
    expect(await fixture!.service.get(fixture!.key, askId)).toMatchObject({ status: "nothing", reason: "refused" });
  }, 60_000);

  it("logs in asking for the address and the token it was not given, and saves them", async () => {
    fixture = await createQuestionsApiFixture("pglite");
    server = await servePersonApi(fixture.database.db, fixture.api);
    const { secret } = await createApiKey(fixture.database.db, { kind: "personal", name: "The terminal", by: fixture.ada.id, userId: fixture.ada.id });
    const folder = mkdtempSync(path.join(tmpdir(), "parley-login-"));
    try {
      const config = path.join(folder, "config.json");
      const pty = new PtySession(["login"], { env: { PARLEY_CONFIG: config } });
      await pty.waitFor("Parley's address");
      pty.type(server.url);
      await pty.waitFor("A personal token");
      expect(pty.screen).toContain(`${server.url}/profile`);
      pty.type(secret);
      expect(await pty.exited()).toBe(0);
      // The token is never shown as it is typed.
      expect(pty.screen).not.toContain(secret);
      expect(pty.screen).toContain("Logged in to");
      expect(JSON.parse(readFileSync(config, "utf8"))).toEqual({ url: server.url, token: secret });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
