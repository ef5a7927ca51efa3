import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createEscalationFixture, type EscalationFixture, HOUR, REMIND_THEN_FINANCE } from "./escalation-fixture";

describe.each(DATABASE_KINDS)("two runtimes sweeping at once (%s)", (kind) => {
  let fixture: EscalationFixture;
  afterEach(async () => fixture?.database.close());

  it("fire each step once between them", async () => {
    fixture = await createEscalationFixture(kind);
    const asked = [];
    for (let index = 0; index < 20; index++) asked.push(await fixture.ask(fixture.olu.id, REMIND_THEN_FINANCE));
    const other = fixture.anotherRuntime();

    fixture.advance(9 * HOUR);
    const swept = await Promise.all([fixture.runtime.sweepEscalations(), other.sweepEscalations(), fixture.runtime.sweepEscalations(), other.sweepEscalations()]);

    expect(swept.reduce((sum, count) => sum + count, 0)).toBe(20);
    for (const { taskId } of asked) expect((await fixture.escalatedEvents(taskId)).map((event) => event.step)).toEqual([1, 2]);
    expect(fixture.announced.filter((change) => change.kind === "slot-escalated")).toHaveLength(40);
  });
});
