import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createEscalationFixture, type EscalationFixture, HOUR, REMIND_THEN_FINANCE } from "./escalation-fixture";

describe.each(DATABASE_KINDS)("a step of a wait that is no longer open (%s)", (kind) => {
  let fixture: EscalationFixture;
  afterEach(async () => fixture?.database.close());

  it("never fires once the question is answered", async () => {
    fixture = await createEscalationFixture(kind);
    const { questionId, taskId, slotId } = await fixture.ask(fixture.olu.id, REMIND_THEN_FINANCE);
    fixture.advance(HOUR);
    expect(await fixture.runtime.submitAnswer({ questionId, by: fixture.olu.id, answer: { text: { approve: "no" } } })).toMatchObject({ status: "answered" });

    fixture.advance(8 * HOUR);
    expect(await fixture.runtime.tick()).toMatchObject({ escalated: 0 });
    expect(await fixture.escalatedEvents(taskId)).toEqual([]);
    expect((await fixture.stepsOf(slotId)).map((step) => step.firedAt)).toEqual([null, null]);
    expect(await fixture.notificationsOf(fixture.olu.id, "reminder")).toEqual([]);
  });

  it("never fires once the deadline has passed: the expiry decides, even for steps overdue since before it", async () => {
    fixture = await createEscalationFixture(kind);
    const { taskId } = await fixture.ask(fixture.olu.id, REMIND_THEN_FINANCE);

    fixture.advance(10 * HOUR);
    expect(await fixture.runtime.tick()).toMatchObject({ expired: 1, escalated: 0 });
    expect(await fixture.escalatedEvents(taskId)).toEqual([]);
  });
});
