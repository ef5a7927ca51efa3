import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createEscalationFixture, type EscalationFixture, HOUR, REMIND_THEN_FINANCE } from "./escalation-fixture";

describe.each(DATABASE_KINDS)("an escalation chain's steps (%s)", (kind) => {
  let fixture: EscalationFixture;
  afterEach(async () => fixture?.database.close());

  it("fire at their moments of the SLA, each once, the remind step reminding whoever the question is for", async () => {
    fixture = await createEscalationFixture(kind);
    const { taskId, slotId, questionId } = await fixture.ask(fixture.olu.id, REMIND_THEN_FINANCE);

    fixture.advance(5 * HOUR - 1);
    expect(await fixture.runtime.tick()).toMatchObject({ escalated: 0 });
    expect(await fixture.escalatedEvents(taskId)).toEqual([]);

    fixture.advance(1);
    expect(await fixture.runtime.tick()).toMatchObject({ escalated: 1 });
    expect(await fixture.runtime.tick()).toMatchObject({ escalated: 0 });
    expect(await fixture.escalatedEvents(taskId)).toEqual([{ slotId, step: 1, action: { kind: "remind" }, percent: 50, assigneeId: fixture.olu.id }]);
    expect(await fixture.notificationsOf(fixture.olu.id, "reminder")).toEqual([{ questionId, data: expect.objectContaining({ escalationStep: 1, percent: 50 }) }]);

    fixture.advance(3 * HOUR);
    expect(await fixture.runtime.tick()).toMatchObject({ escalated: 1 });
    fixture.advance(HOUR);
    expect(await fixture.runtime.tick()).toMatchObject({ escalated: 0 });
    const events = await fixture.escalatedEvents(taskId);
    expect(events.map((event) => [event.step, event.percent, event.group ?? null])).toEqual([
      [1, 50, null],
      [2, 80, "finance"],
    ]);
    expect((await fixture.stepsOf(slotId)).map((step) => step.firedAt?.toISOString())).toEqual([
      "2026-12-04T13:00:00.000Z",
      "2026-12-04T16:00:00.000Z",
    ]);
    expect(await fixture.notificationsOf(fixture.olu.id, "reminder")).toHaveLength(1);
  });
});
