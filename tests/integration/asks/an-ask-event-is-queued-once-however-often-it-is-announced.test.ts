import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { findApiAskById } from "@/db/queries/api-asks";
import type { RuntimeChange } from "@/lib/runtime";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

describe.each(DATABASE_KINDS)("an ended ask announced again, on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("is queued once per target, however often and however its end is announced", async () => {
    fixture = await createAskFixture(kind, { askEvents: { global: true } });
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Ship it?", callback_url: "https://agent.example.test/hooks" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "yes" } } });
    expect(await fixture.outboxOf(ask.id)).toMatchObject([
      { kind: "ask-answered", notifier: "callback" },
      { kind: "ask-answered", notifier: "webhook" },
    ]);

    const { questionId } = (await findApiAskById(fixture.database.db, ask.id))!;
    const again: RuntimeChange[] = [
      { kind: "question-answered", taskId: ask.id, questionId, userIds: [] },
      { kind: "slot-expired", taskId: ask.id, userIds: [] },
    ];
    // Twice in one transaction, and again in another: what the runtime would do if it announced the end more than once.
    await fixture.database.db.transaction(async (tx) => {
      await fixture!.announce(tx as unknown as Db, again);
      await fixture!.announce(tx as unknown as Db, again);
    });
    await fixture.database.db.transaction((tx) => fixture!.announce(tx as unknown as Db, again));
    await fixture.runtime.drain();

    expect(await fixture.outboxOf(ask.id)).toHaveLength(2);
  });
});
