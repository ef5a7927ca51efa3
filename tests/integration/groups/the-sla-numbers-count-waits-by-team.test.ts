import { afterEach, describe, expect, it } from "vitest";
import { readSlaReport } from "@/db/queries/sla";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createTeamFixture, group, type TeamFixture } from "./team-fixture";

describe.each(DATABASE_KINDS)("the SLA numbers by team (%s)", (kind) => {
  let fixture: TeamFixture;
  afterEach(async () => fixture?.database.close());

  it("count each wait put to a team under that team: answered within the SLA, and breached", async () => {
    fixture = await createTeamFixture(kind);
    const answered = await fixture.ask(group("finance"), 60);
    await fixture.ask(group("finance"), 60);
    await fixture.ask(fixture.olu.id, 60);
    fixture.advance(10 * 60_000);
    await fixture.runtime.submitAnswer({ questionId: answered.questionId, by: fixture.femi.id, answer: { text: { approve: "yes" } } });
    fixture.advance(60 * 60_000);
    await fixture.runtime.sweepExpiredSlots();

    const report = await readSlaReport(fixture.database.db, null, new Date("2026-12-02T00:00:00Z"));
    expect(report.byTeam).toEqual([
      { key: fixture.financeId, label: "finance", total: 2, answered: 1, withinSla: 1, breaches: 1, p50: 600_000, p90: 600_000, p95: 600_000 },
    ]);
    expect(report.overall.total).toBe(3);
  });
});
