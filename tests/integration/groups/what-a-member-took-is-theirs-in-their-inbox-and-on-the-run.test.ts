import { afterEach, describe, expect, it } from "vitest";
import { findRun } from "@/db/queries/runs";
import { loadInbox } from "@/lib/inbox";
import { createRegistry } from "@/lib/registry";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createTeamFixture, group, type TeamFixture } from "./team-fixture";

describe.each(DATABASE_KINDS)("a team question a member took (%s)", (kind) => {
  let fixture: TeamFixture;
  afterEach(async () => fixture?.database.close());

  async function inbox(userId: string, view: "assigned" | "team") {
    return loadInbox(fixture.database.db, userId, view, new Date(), { registry: createRegistry({ apps: [] }) });
  }

  it("is under Assigned to me for whoever took it, and no longer under their team, counts included", async () => {
    fixture = await createTeamFixture(kind);
    const { questionId } = await fixture.ask(group("finance"));
    expect((await inbox(fixture.femi.id, "team")).rows.map((row) => row.id)).toContain(questionId);
    const [question] = await fixture.runtime.questionsFor(fixture.femi.id);
    await fixture.runtime.claimSlot({ slotId: question!.slot!.id, by: fixture.femi.id });

    const mine = await inbox(fixture.femi.id, "assigned");
    expect(mine.rows.map((row) => row.id)).toEqual([questionId]);
    expect(mine.rows[0]?.claimedBy).toMatchObject({ id: fixture.femi.id });
    expect(mine.counts).toMatchObject({ assigned: 1, team: 0 });
    expect((await inbox(fixture.femi.id, "team")).rows).toEqual([]);
    // The rest of the team still sees it, and who has it.
    const team = await inbox(fixture.fatima.id, "team");
    expect(team.rows.find((row) => row.id === questionId)?.claimedBy).toMatchObject({ name: "Femi Finance" });
  });

  it("goes back to the team when given back", async () => {
    fixture = await createTeamFixture(kind);
    const { questionId } = await fixture.ask(group("finance"));
    const [question] = await fixture.runtime.questionsFor(fixture.femi.id);
    await fixture.runtime.claimSlot({ slotId: question!.slot!.id, by: fixture.femi.id });
    await fixture.runtime.unclaimSlot({ slotId: question!.slot!.id, by: fixture.femi.id });
    expect((await inbox(fixture.femi.id, "assigned")).rows).toEqual([]);
    expect((await inbox(fixture.femi.id, "team")).rows.map((row) => row.id)).toEqual([questionId]);
  });

  it("makes the run say who holds it, and before that which team it waits on", async () => {
    fixture = await createTeamFixture(kind);
    const { taskId } = await fixture.ask(group("finance"));
    expect((await findRun(fixture.database.db, taskId))?.waitingOn).toBe("the team finance");
    const [question] = await fixture.runtime.questionsFor(fixture.femi.id);
    await fixture.runtime.claimSlot({ slotId: question!.slot!.id, by: fixture.femi.id });
    expect((await findRun(fixture.database.db, taskId))?.waitingOn).toBe("Femi Finance (took it)");
  });
});
