import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "../questions-api/questions-api-fixture";
import { servePersonApi } from "./person-api-server";
import { PtySession } from "./terminal-run";

/*
 * A person at the prompt of `parley answer` who leaves it (Ctrl-C) has not answered and has not
 * declined: their question stays open in their inbox, and the command exits 3 saying so.
 */
describe("leaving the prompt of parley answer", () => {
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

  it("leaves the question open and exits 3", async () => {
    const { askId, questionId } = await fixture.ask({ title: "Deploy billing 4.2?" });
    const pty = new PtySession(["answer", questionId], { env });
    await pty.waitFor("Question 1 of 1");
    pty.press("\u0003");
    expect(await pty.exited()).toBe(3);
    expect(pty.screen).toContain("Nobody is at this terminal (end of input): no answer was given, and the question is still open.");
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "open" });
  }, 60_000);
});
