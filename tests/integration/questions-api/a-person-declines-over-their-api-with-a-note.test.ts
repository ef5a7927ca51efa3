import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createQuestionsApiFixture, type QuestionsApiFixture } from "./questions-api-fixture";

describe.each(DATABASE_KINDS)("declining over the person's API on %s", (kind) => {
  let fixture: QuestionsApiFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  it("closes the question declined with the note, says so on the question, and answers the same again alike", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const { askId, questionId } = await fixture.ask();
    const declined = { id: questionId, status: "nothing", reason: "declined", note: "Wrong team: ask the release managers." };
    expect(await fixture.api.nothing(fixture.adaToken, questionId, { reason: "declined", note: "Wrong team: ask the release managers." })).toEqual(declined);
    expect(fixture.settled.count).toBe(1);
    expect(await fixture.api.get(fixture.adaToken, questionId)).toMatchObject({ status: "nothing", reason: "declined", declined_by: { name: fixture.ada.name }, note: declined.note });
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "nothing", reason: "declined", note: declined.note });
    expect(await fixture.api.nothing(fixture.adaToken, questionId, { reason: "declined" })).toEqual(declined);
  });

  it("refuses a note over 1,000 characters by its path, and the question stays open", async () => {
    fixture = await createQuestionsApiFixture(kind);
    const { askId, questionId } = await fixture.ask();
    await expect(fixture.api.nothing(fixture.adaToken, questionId, { reason: "declined", note: "x".repeat(1_001) })).rejects.toMatchObject({ code: "invalid_input", path: "note" });
    expect(await fixture.service.get(fixture.key, askId)).toMatchObject({ status: "open" });
  });
});
