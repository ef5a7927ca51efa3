import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "../questions-api/questions-api-fixture";
import { servePersonApi } from "./person-api-server";
import { runWithPipes } from "./terminal-run";

/*
 * A person who means it ends their question unanswered with `parley answer <id> --nothing`, with or
 * without a terminal: the asker gets nothing, reason non-interactive (the one reason the person's API
 * takes), and the command exits 0, having done what it was asked.
 */
describe("parley answer --nothing", () => {
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

  it("ends the question unanswered on purpose: the asker gets nothing, and the command exits 0", async () => {
    const { askId, questionId } = await fixture.ask({ title: "Deploy?" });
    const result = await runWithPipes(["answer", questionId, "--nothing"], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Ended without an answer");
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "nothing", reason: "non-interactive" });

    const again = await runWithPipes(["answer", questionId, "--nothing"], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("This question closed without an answer (reason: non-interactive).");
  }, 60_000);

  it("is refused beside an answers file, and leaves the question as it was", async () => {
    const { askId, questionId } = await fixture.ask({ title: "Deploy?" });
    const result = await runWithPipes(["answer", questionId, "--nothing", "--answers", "answers.json"], { env });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("without --answers");
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "open" });
  }, 60_000);
});
