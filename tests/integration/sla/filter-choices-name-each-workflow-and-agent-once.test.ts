import { afterEach, describe, expect, it } from "vitest";
import { listSlaFilterChoices } from "@/db/queries/sla";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { type SeededWait, seedWaits } from "../inbox/seed-waits";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("the SLA page's filter choices (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("name every workflow that waited and every agent that asked, once each, in order", async () => {
    database = await createTestDatabase(kind);
    expect(await listSlaFilterChoices(database.db)).toEqual({ workflows: [], agents: [] });
    const [sam] = await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    const wait = (workflow: string, agent: string | null, finished = false): SeededWait => ({
      assignee: sam!.id,
      candidates: [sam!.id],
      workflow,
      agent,
      askedAgoMs: 2 * HOUR,
      dueInMs: HOUR,
      ...(finished ? { slotStatus: "finished" as const, finishedBy: sam!.id, finishedAgoMs: HOUR } : {}),
    });
    await seedWaits(database.db, NOW, [
      wait("ReviewClaim", "Auditor"),
      wait("ReviewClaim", "Auditor", true),
      wait("Onboarding", null),
      wait("VendorCheck", "Buyer", true),
      wait("Onboarding", "Auditor"),
      { ...wait("Payroll", null), withoutQuestion: true },
    ]);
    expect(await listSlaFilterChoices(database.db)).toEqual({ workflows: ["Onboarding", "Payroll", "ReviewClaim", "VendorCheck"], agents: ["Auditor", "Buyer"] });
  });
});
