import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createEscalationFixture, type EscalationFixture, HOUR } from "./escalation-fixture";
import { WaitWithChain } from "./escalation-fixture";

describe.each(DATABASE_KINDS)("a state's wait with an escalation chain (%s)", (kind) => {
  let fixture: EscalationFixture;
  afterEach(async () => fixture?.database.close());

  it("reminds its assignee at half time and lets finance approve from 80 %, its deadline still `unfinished`", async () => {
    fixture = await createEscalationFixture(kind);
    const { taskId, slotId } = await fixture.wait(fixture.olu.id);

    fixture.advance(5 * HOUR);
    await fixture.runtime.tick();
    expect(await fixture.notificationsOf(fixture.olu.id, "reminder")).toEqual([{ questionId: null, data: expect.objectContaining({ percent: 50 }) }]);
    await expect(fixture.runtime.deposit(WaitWithChain, { taskId, event: "Approved", payload: { ok: true }, by: fixture.femi.id })).rejects.toMatchObject({ code: "forbidden" });

    fixture.advance(3 * HOUR);
    await fixture.runtime.tick();
    expect(await fixture.escalatedEvents(taskId)).toEqual([
      { slotId, step: 1, action: { kind: "remind" }, percent: 50, assigneeId: fixture.olu.id },
      { slotId, step: 2, action: { kind: "add-group", groupId: expect.any(String), group: "finance" }, group: "finance", percent: 80, assigneeId: fixture.olu.id },
    ]);
    expect((await fixture.runtime.answerableSlots(fixture.femi.id)).map((slot) => slot.id)).toEqual([slotId]);

    fixture.advance(2 * HOUR);
    expect(await fixture.runtime.tick()).toMatchObject({ expired: 1, escalated: 0 });
    expect((await fixture.runtime.events(taskId)).at(-1)).toMatchObject({ kind: "failed", data: { message: "nobody approved in time" } });
  });
});
