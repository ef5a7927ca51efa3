import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { type AskFixture, createAskFixture } from "./ask-fixture";

describe.each(DATABASE_KINDS)("cancelling an ask on %s", (kind) => {
  let fixture: AskFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("closes an open one with nothing, reason cancelled, and takes it out of the inbox; cancelling again changes nothing", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Still need the report?" });
    expect(await fixture.service.cancel(fixture.key, ask.id)).toMatchObject({ status: "nothing", reason: "cancelled" });
    expect(await fixture.runtime.questionsFor(fixture.ada.id)).toEqual([]);
    expect(await fixture.service.cancel(fixture.key, ask.id)).toMatchObject({ status: "nothing", reason: "cancelled" });
  });

  it("is refused for an answered one, naming who answered and when", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Still need the report?" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "Yes" } } });
    await expect(fixture.service.cancel(fixture.key, ask.id)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("Ada Answerer at 2026-12-04T09:00:00.000Z"),
    });
    expect((await fixture.service.get(fixture.key, ask.id)).status).toBe("answered");
  });

  it("leaves the person a question they can no longer answer", async () => {
    fixture = await createAskFixture(kind);
    const { ask } = await fixture.service.create(fixture.key, { to: "ada@parley.test", title: "Still need the report?" });
    const [question] = await fixture.runtime.questionsFor(fixture.ada.id);
    await fixture.service.cancel(fixture.key, ask.id);
    const late = await fixture.runtime.submitAnswer({ questionId: question!.id, by: fixture.ada.id, answer: { text: { answer: "Yes" } } });
    expect(late).toMatchObject({ status: "conflict", reason: "cancelled" });
  });
});
