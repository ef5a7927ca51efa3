import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "../questions-api/questions-api-fixture";
import { servePersonApi } from "./person-api-server";
import { runWithPipes } from "./terminal-run";

/*
 * `parley answer` takes the short id `parley inbox` shows (the beginning of a question's id, unique
 * among the person's open questions) and the id of an API ask put to them — never a question of
 * someone else's; a beginning that fits several is refused naming them, one that fits none plainly.
 */
describe("parley answer by a short id or an ask's id", () => {
  let fixture: QuestionsApiFixture;
  let server: { url: string; close(): Promise<void> };
  let env: Record<string, string>;
  let folder: string;

  beforeAll(async () => {
    fixture = await createQuestionsApiFixture("pglite");
    server = await servePersonApi(fixture.database.db, fixture.api);
    const { secret } = await createApiKey(fixture.database.db, { kind: "personal", name: "The terminal", by: fixture.ada.id, userId: fixture.ada.id });
    env = { PARLEY_URL: server.url, PARLEY_TOKEN: secret, PARLEY_CONFIG: "/nonexistent/parley.json" };
    folder = mkdtempSync(path.join(tmpdir(), "parley-short-id-"));
    writeFileSync(path.join(folder, "answer.json"), JSON.stringify({ answer: "Yes, ship it." }));
  });
  afterAll(async () => {
    await server?.close();
    await fixture?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const parley = (args: string[]) => runWithPipes(args, { env, cwd: folder });

  it("answers the question whose short id the inbox shows", async () => {
    const first = await fixture.ask({ title: "Ship billing 4.2?" });
    const second = await fixture.ask({ title: "Ship billing 4.3?" });
    const inbox = await parley(["inbox"]);
    const shortOf = (title: string) => inbox.stdout.split("\n").find((line) => line.endsWith(title))!.split(/\s+/)[0]!;
    const short = shortOf("Ship billing 4.3?");
    expect(short.length).toBeLessThan(second.questionId.length);
    expect(second.questionId.startsWith(short)).toBe(true);
    expect(first.questionId.startsWith(short)).toBe(false);

    const answered = await parley(["answer", short, "--answers", "answer.json"]);
    expect(answered.code).toBe(0);
    expect(await fixture.service.get(fixture.key, second.askId)).toMatchObject({ status: "answered" });
    expect(await fixture.service.get(fixture.key, first.askId)).toMatchObject({ status: "open" });
  }, 60_000);

  it("refuses a beginning several open questions share, naming them, and one that none has", async () => {
    const first = await fixture.ask({ title: "Deploy A?" });
    const second = await fixture.ask({ title: "Deploy B?" });
    // Ids are time-ordered: two made a moment apart begin alike.
    let shared = 0;
    while (first.questionId[shared] === second.questionId[shared]) shared++;
    const both = first.questionId.slice(0, shared);
    const several = await parley(["answer", both, "--answers", "answer.json"]);
    expect(several.code).toBe(64);
    expect(several.stderr).toContain(`${both} begins the ids of`);
    expect(several.stderr).toContain(first.questionId.slice(0, shared + 1));
    expect(several.stderr).toContain("Give more of the id.");

    const none = await parley(["answer", "fff", "--answers", "answer.json"]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("None of your open questions has an id beginning fff");
    expect(await parley(["answer", "not-an-id!"])).toMatchObject({ code: 64, stderr: expect.stringContaining("is not a question id") });
    expect(await fixture.service.get(fixture.key, first.askId)).toMatchObject({ status: "open" });
  }, 60_000);

  it("answers the question an API ask put to the person, by the ask's id; another's ask is not found", async () => {
    const mine = await fixture.ask({ title: "Roll back?" });
    const answered = await parley(["answer", mine.askId, "--answers", "answer.json"]);
    expect(answered.code).toBe(0);
    expect(await fixture.service.get(fixture.key, mine.askId)).toMatchObject({ status: "answered" });

    const bos = await fixture.ask({ to: "bo@parley.test", title: "Bo's question" });
    const refused = await parley(["answer", bos.askId, "--answers", "answer.json"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("no such question");
    expect(await fixture.service.get(fixture.key, bos.askId)).toMatchObject({ status: "open" });
  }, 60_000);
});
