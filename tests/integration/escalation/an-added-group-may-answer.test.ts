import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createEscalationFixture, type EscalationFixture, HOUR, REMIND_THEN_FINANCE } from "./escalation-fixture";

describe.each(DATABASE_KINDS)("an add-group step (%s)", (kind) => {
  let fixture: EscalationFixture;
  afterEach(async () => fixture?.database.close());

  it("lets the group's members answer from its moment on, and tells them in the app and live", async () => {
    fixture = await createEscalationFixture(kind);
    const { questionId, taskId } = await fixture.ask(fixture.olu.id, REMIND_THEN_FINANCE);
    expect(await fixture.runtime.submitAnswer({ questionId, by: fixture.fatima.id, answer: { text: { approve: "yes" } } })).toMatchObject({ status: "forbidden" });

    fixture.advance(8 * HOUR);
    await fixture.runtime.tick();

    expect(await fixture.notificationsOf(fixture.fatima.id, "escalated")).toEqual([{ questionId, data: expect.objectContaining({ group: "finance", percent: 80 }) }]);
    expect(await fixture.notificationsOf(fixture.femi.id, "escalated")).toHaveLength(1);
    const escalated = fixture.announced.filter((change) => change.kind === "slot-escalated" && change.escalation?.action.kind === "add-group");
    expect(escalated).toHaveLength(1);
    expect(escalated[0]!.userIds).toEqual(expect.arrayContaining([fixture.olu.id, fixture.fatima.id, fixture.femi.id]));
    expect((await fixture.runtime.questionsFor(fixture.femi.id)).map((question) => question.id)).toEqual([questionId]);
    expect(await fixture.runtime.submitAnswer({ questionId, by: fixture.fatima.id, answer: { text: { approve: "yes" } } })).toMatchObject({ status: "answered" });
    await fixture.runtime.drain();
    expect((await fixture.runtime.events(taskId)).at(-1)).toMatchObject({ kind: "completed" });
  });
});
