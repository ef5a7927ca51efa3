import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "../questions-api/questions-api-fixture";
import { servePersonApi } from "./person-api-server";
import { runWithPipes } from "./terminal-run";

/*
 * `parley answer` with nobody at the terminal (a pipe, a script, CI, --no-input) against a server:
 * the person's question is in their browser inbox too, so it stays open — the command asks nothing,
 * says why and what to do, and exits 3.
 */
describe("parley answer with nobody at the terminal", () => {
  let fixture: QuestionsApiFixture;
  let server: { url: string; close(): Promise<void> };
  let env: Record<string, string>;

  beforeAll(async () => {
    fixture = await createQuestionsApiFixture("pglite");
    server = await servePersonApi(fixture.database.db, fixture.api);
    const { secret } = await createApiKey(fixture.database.db, { kind: "personal", name: "The terminal", by: fixture.ada.id, userId: fixture.ada.id });
    env = { PARLEY_URL: server.url, PARLEY_TOKEN: secret, PARLEY_CONFIG: "/nonexistent/parley.json" };
  });
  afterAll(async () => {
    await server?.close();
    await fixture?.close();
  });

  it.each([
    [["--no-input"], {}, "--no-input was given"],
    [[], {}, "stdin is not a terminal"],
    [[], { CI: "true" }, "CI is set"],
  ] as const)("leaves the question open, says why and what to do, and exits 3 (%j %j)", async (args, extra, why) => {
    const { askId, questionId } = await fixture.ask({ title: "Deploy?" });
    const result = await runWithPipes(["answer", questionId, ...args], { env: { ...env, ...extra } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`Nobody is at this terminal (${why}): no answer was given, and the question is still open.`);
    expect(result.stderr).toContain(`parley answer ${questionId} --nothing`);
    expect(result.stdout).not.toContain("Question 1 of 1");
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "open" });
    const inbox = await runWithPipes(["inbox", "--json"], { env });
    expect((JSON.parse(inbox.stdout) as { id: string }[]).map((question) => question.id)).toContain(questionId);
  }, 60_000);
});
