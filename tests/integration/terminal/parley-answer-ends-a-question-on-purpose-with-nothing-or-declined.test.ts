import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "../questions-api/questions-api-fixture";
import { servePersonApi } from "./person-api-server";
import { runWithPipes } from "./terminal-run";

/*
 * A person who means it ends their question unanswered, with or without a terminal:
 * `parley answer <id> --nothing` (nobody is at the terminal: reason non-interactive) or
 * `--decline [--note TEXT]` (they cannot answer it: reason declined, the note for whoever asked).
 * The command exits 0, having done what it was asked.
 */
describe("parley answer --nothing and --decline", () => {
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

  it("--decline ends the question declined, with the note reaching whoever asked; declining again is told who declined", async () => {
    const { askId, questionId } = await fixture.ask({ title: "Which region?" });
    const result = await runWithPipes(["answer", questionId, "--decline", "--note", "Not my area: ask the platform team."], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Declined: whoever asked was told you cannot answer it, with your note");
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({
      status: "nothing",
      reason: "declined",
      declined_by: { email: fixture.ada.email },
      note: "Not my area: ask the platform team.",
    });

    const again = await runWithPipes(["answer", questionId, "--decline"], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`This question was declined by ${fixture.ada.name}, noting: Not my area: ask the platform team.`);
  }, 60_000);

  it("--note without --decline is refused, and leaves the question as it was", async () => {
    const { askId, questionId } = await fixture.ask({ title: "Deploy?" });
    const result = await runWithPipes(["answer", questionId, "--note", "Busy."], { env });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("--note goes with --decline");
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "open" });
  }, 60_000);
});
