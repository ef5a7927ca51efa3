import { afterEach, describe, expect, it } from "vitest";
import { escalationText, runEntries } from "@/lib/run-view";
import { readOutstandingWork } from "@/lib/sla-outstanding";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createEscalationFixture, type EscalationFixture, HOUR, REMIND_THEN_FINANCE } from "./escalation-fixture";

describe.each(DATABASE_KINDS)("a wait's fired escalation steps (%s)", (kind) => {
  let fixture: EscalationFixture;
  afterEach(async () => fixture?.database.close());

  it("read as words on the run page: who was reminded, which team it went to, at what share of the SLA", async () => {
    fixture = await createEscalationFixture(kind);
    const { taskId } = await fixture.ask(fixture.olu.id, REMIND_THEN_FINANCE);
    fixture.advance(8 * HOUR);
    await fixture.runtime.tick();

    const entries = runEntries(await fixture.runtime.events(taskId), { names: new Map([[fixture.olu.id, "Olu Outside"]]), answers: new Map() });
    expect(entries.filter((entry) => entry.kind === "escalated").map((entry) => escalationText(entry as Parameters<typeof escalationText>[0]))).toEqual([
      "Escalated: reminded Olu Outside (50 % of the SLA)",
      "Escalated to the team finance (80 % of the SLA)",
    ]);
  });

  it("are listed with the next step on the SLA page's open waits", async () => {
    fixture = await createEscalationFixture(kind);
    const { slotId } = await fixture.ask(fixture.olu.id, REMIND_THEN_FINANCE);
    const before = await readOutstandingWork(fixture.database.db, {}, fixture.clock.now, { limit: 10 });
    expect(before.page.find((slot) => slot.id === slotId)?.escalation).toMatchObject({ fired: [], next: { step: 1, percent: 50, label: "remind" } });

    fixture.advance(5 * HOUR);
    await fixture.runtime.tick();
    const after = await readOutstandingWork(fixture.database.db, {}, fixture.clock.now, { limit: 10 });
    expect(after.page.find((slot) => slot.id === slotId)?.escalation).toMatchObject({
      fired: [{ step: 1, percent: 50, label: "remind" }],
      next: { step: 2, percent: 80, label: "+finance", dueAt: new Date("2026-12-04T16:00:00.000Z") },
    });
  });
});
