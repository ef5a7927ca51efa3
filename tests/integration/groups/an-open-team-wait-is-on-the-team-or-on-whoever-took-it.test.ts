import { afterEach, describe, expect, it } from "vitest";
import { listOpenSlots } from "@/db/queries/sla";
import { DATABASE_KINDS } from "@/tests/support/databases";
import { createTeamFixture, group, type TeamFixture } from "./team-fixture";

describe.each(DATABASE_KINDS)("an open wait put to a team, on the SLA page (%s)", (kind) => {
  let fixture: TeamFixture;
  afterEach(async () => fixture?.database.close());

  it("names the team it waits on, and once a member takes it, that member", async () => {
    fixture = await createTeamFixture(kind);
    await fixture.ask(group("finance"), 60);
    const [before] = await listOpenSlots(fixture.database.db, {}, new Date());
    expect(before).toMatchObject({ assigneeName: null, candidateCount: 0, teams: ["finance"], claimedByName: null });

    await fixture.runtime.claimSlot({ slotId: before!.id, by: fixture.femi.id });
    const [after] = await listOpenSlots(fixture.database.db, {}, new Date());
    expect(after).toMatchObject({ teams: ["finance"], claimedByName: "Femi Finance" });
  });
});
