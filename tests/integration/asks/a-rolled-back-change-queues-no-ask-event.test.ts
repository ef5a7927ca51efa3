import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

describe.each(DATABASE_KINDS)("a change to an ask that rolls back, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("queues no event: the answer and its event commit together or not at all", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: true } });
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?", callback_url: "https://agent.example.test/hooks" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);

    // The event was queued inside the transaction before this fails it.
    fixture.beforeCommit = (changes) => {
      if (changes.some((change) => change.kind === "question-answered")) throw new Error("the commit fails");
    };
    await expect(fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "yes" } } })).rejects.toThrow("the commit fails");
    expect((await fixture.service.get(fixture.key, ask.id)).status).toBe("open");
    expect(await fixture.outboxOf(ask.id)).toEqual([]);

    fixture.beforeCommit = undefined;
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "yes" } } });
    expect(await fixture.outboxOf(ask.id)).toMatchObject([
      { kind: "ask-answered", notifier: "callback" },
      { kind: "ask-answered", notifier: "webhook" },
    ]);
  });

  it("queues no event for an expiry that rolls back", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: false } });
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?", due_in_seconds: 60, callback_url: "https://agent.example.test/hooks" });
    fixture.advance(61_000);
    fixture.beforeCommit = () => {
      throw new Error("the commit fails");
    };
    await expect(fixture.runtime.sweepExpiredSlots()).rejects.toThrow("the commit fails");
    expect((await fixture.service.get(fixture.key, ask.id)).status).toBe("open");
    expect(await fixture.outboxOf(ask.id)).toEqual([]);

    fixture.beforeCommit = undefined;
    expect(await fixture.runtime.sweepExpiredSlots()).toBe(1);
    expect(await fixture.outboxOf(ask.id)).toMatchObject([{ kind: "ask-nothing", notifier: "callback" }]);
  });
});
