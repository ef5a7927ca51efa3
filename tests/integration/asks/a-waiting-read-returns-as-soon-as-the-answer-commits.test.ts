import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

describe.each(DATABASE_KINDS)("a waiting read of an ask on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("returns the answer as soon as it is committed, long before its wait is up", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Go?" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    const started = performance.now();
    const waiting = fixture.service.wait(fixture.key, ask.id, 30);
    setTimeout(() => void fixture!.runtime.submitAnswer({ questionId: question!.id, by: fixture!.ada.id, answer: { text: { answer: "Go" } } }), 300);
    const answered = await waiting;
    expect(answered).toMatchObject({ status: "answered", answer: "Go" });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("stays open through a refused attempt, and says open when its wait is up", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Go?" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    const started = performance.now();
    const waiting = fixture.service.wait(fixture.key, ask.id, 2);
    setTimeout(() => void fixture!.runtime.submitAnswer({ questionId: question!.id, by: fixture!.ada.id, answer: { text: { answer: "x".repeat(10_001) } } }), 200);
    const still = await waiting;
    expect(still).toMatchObject({ status: "open", attempts: { refused: 1 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
  });

  it("of an ask already closed returns at once", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "cy@parley.test", title: "Go?" });
    const started = performance.now();
    expect(await fixture.service.wait(fixture.key, ask.id, 30)).toMatchObject({ status: "nothing", reason: "away" });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
