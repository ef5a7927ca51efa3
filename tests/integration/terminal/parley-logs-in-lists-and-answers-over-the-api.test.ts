import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { DEPLOY_SCHEMA } from "../asks/ask-fixture";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "../questions-api/questions-api-fixture";
import { servePersonApi } from "./person-api-server";
import { runWithPipes } from "./terminal-run";

/*
 * The `parley` command against a server's person API, with pipes (nobody at a terminal): login
 * checks and saves, inbox lists, answer takes an answers file, exit codes as EXIT (nobody at the
 * terminal: nobody-at-the-terminal-leaves-a-persons-question-open.test.ts).
 */
describe("parley login, inbox and answer over the API", () => {
  let fixture: QuestionsApiFixture;
  let server: { url: string; close(): Promise<void> };
  let folder: string;
  let token: string;
  let config: string;

  beforeAll(async () => {
    fixture = await createQuestionsApiFixture("pglite");
    server = await servePersonApi(fixture.database.db, fixture.api);
    token = (await createApiKey(fixture.database.db, { kind: "personal", name: "The terminal", by: fixture.ada.id, userId: fixture.ada.id })).secret;
    folder = mkdtempSync(path.join(tmpdir(), "parley-cli-"));
    config = path.join(folder, "config", "parley.json");
  });
  afterAll(async () => {
    await server?.close();
    await fixture?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const parley = (args: string[], env: Record<string, string> = {}, cwd?: string) => runWithPipes(args, { env: { PARLEY_CONFIG: config, ...env }, ...(cwd ? { cwd } : {}) });

  it("logs in only with a live personal token, saving the server and token for the owner alone", async () => {
    expect(await parley(["login", "--url", server.url])).toMatchObject({ code: 64, stderr: expect.stringContaining("give --token") });
    expect(await parley(["login", "--url", server.url, "--token", "pk_someagentkey"])).toMatchObject({ code: 64, stderr: expect.stringContaining("agent key") });
    const wrong = await parley(["login", "--url", server.url, "--token", "pt_notarealtoken"]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("This personal token is unknown or was revoked.");
    expect(() => statSync(config)).toThrow();

    const login = await parley(["login", "--url", `${server.url}/`, "--token", token]);
    expect(login).toMatchObject({ code: 0, stdout: `Logged in to ${server.url} as Ada Answerer (ada@parley.test). Saved to ${config}.\n` });
    expect(JSON.parse(readFileSync(config, "utf8"))).toEqual({ url: server.url, token });
    expect(statSync(config).mode & 0o777).toBe(0o600);
  });

  it("lists my open questions — id, due, who asks, the title — and nothing of anyone else's", async () => {
    const mine = await fixture.ask({ title: "Deploy billing 4.2?", due_in_seconds: 3600, response_schema: DEPLOY_SCHEMA });
    await fixture.ask({ to: "bo@parley.test", title: "Bo's question" });
    const inbox = await parley(["inbox"]);
    expect(inbox.code).toBe(0);
    // Each question by its short id: the beginning of its id that no other open question's has.
    const line = inbox.stdout.split("\n").find((row) => row.length > 0 && mine.questionId.startsWith(row.split(/\s+/)[0]!));
    expect(line).toMatch(/Release bot \(API\)\s+Deploy billing 4\.2\?$/);
    expect(inbox.stdout).toMatch(/^ID\s+DUE\s+ASKED BY\s+QUESTION/);
    expect(inbox.stdout).not.toContain("Bo's question");
    const json = JSON.parse((await parley(["inbox", "--json"])).stdout) as { id: string }[];
    expect(json.map((question) => question.id)).toContain(mine.questionId);
    // The environment wins over what was saved.
    expect(await parley(["inbox"], { PARLEY_TOKEN: "pt_notarealtoken" })).toMatchObject({ code: 1, stderr: expect.stringContaining("parley login") });
  });

  it("answers from a file, read from where it was run: a refusal in the schema's words exits 2, a good answer prints the value", async () => {
    const { askId, questionId } = await fixture.ask({ title: "Deploy?", response_schema: DEPLOY_SCHEMA });
    writeFileSync(path.join(folder, "bad.json"), JSON.stringify({ decision: "approve", window_hours: 40 }));
    writeFileSync(path.join(folder, "typo.json"), JSON.stringify({ decision: "approve", window_hours: 4, notfy: true }));
    writeFileSync(path.join(folder, "good.json"), JSON.stringify({ decision: "Approve", window_hours: "4", notify: true }));

    const refused = await parley(["answer", questionId, "--answers", "bad.json"], {}, folder);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("window_hours: Between 1 and 12 hours, please.");
    expect(refused.stderr).toContain("The answers file was refused (next: attempt 2 of 3).");
    const typo = await parley(["answer", questionId, "--answers", "typo.json"], {}, folder);
    expect(typo.code).toBe(64);
    expect(typo.stderr).toContain("“notfy”");

    const answered = await parley(["answer", questionId, "--answers", "good.json"], {}, folder);
    expect(answered.code).toBe(0);
    expect(JSON.parse(answered.stdout)).toEqual({ decision: "approve", window_hours: 4, notify: true });
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "answered", attempts: { refused: 1 }, answered_by: { name: "Ada Answerer" } });

    const again = await parley(["answer", questionId, "--answers", "good.json"], {}, folder);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("This question was already answered by Ada Answerer");
  });

  it("says plainly when no question of mine has the id given", async () => {
    expect(await parley(["answer", "00000000-0000-4000-8000-000000000000", "--no-input"])).toMatchObject({ code: 1, stderr: expect.stringContaining("no such question") });
  });

  it("logs out by forgetting the server and token; then it says to log in", async () => {
    expect(await parley(["logout"])).toMatchObject({ code: 0, stdout: expect.stringContaining(`removed ${config}`) });
    expect(() => statSync(config)).toThrow();
    expect(await parley(["inbox"])).toMatchObject({ code: 1, stderr: expect.stringContaining("Not logged in to a Parley: run `parley login`") });
    expect(await parley(["answer", "x"])).toMatchObject({ code: 1 });
  });
});
