import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { loadInbox } from "@/lib/inbox";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { seedWaits } from "./seed-waits";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("finding a question in the inbox (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function seeded() {
    database = await createTestDatabase(kind);
    const [sam] = await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    await seedWaits(database.db, NOW, [
      { assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 3 * HOUR, dueInMs: HOUR, agent: "Auditor", question: "What was the Lisbon dinner for?" },
      { assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 2 * HOUR, dueInMs: 2 * HOUR, agent: "Auditor", question: "Who flew to Oslo?" },
      { assignee: sam!.id, candidates: [sam!.id], askedAgoMs: HOUR, dueInMs: 3 * HOUR, agent: null, workflow: "DeployApproval", title: "Approve billing-api 2.15 to production (LISBON region)" },
    ]);
    return { db: database.db, sam: sam! };
  }

  it("keeps the questions whose words contain the text, in any case, and counts them", async () => {
    const { db, sam } = await seeded();
    const found = await loadInbox(db, sam.id, "assigned", NOW, { search: { text: "  lisbon " } });
    expect(found.rows.map((row) => row.headline)).toEqual(["What was the Lisbon dinner for?", "Approve billing-api 2.15 to production (LISBON region)"]);
    expect(found.matching).toBe(2);
    expect(found.counts.assigned).toBe(3);
    expect(found.search).toEqual({ text: "lisbon", asker: null, due: null, sort: "due" });
  });

  it("keeps the questions one asker asked, and offers each asker once", async () => {
    const { db, sam } = await seeded();
    const found = await loadInbox(db, sam.id, "assigned", NOW, { search: { asker: "DeployApproval" } });
    expect(found.rows.map((row) => row.headline)).toEqual(["Approve billing-api 2.15 to production (LISBON region)"]);
    expect(found.askers).toEqual(["Auditor", "DeployApproval"]);
  });

  it("treats what a search box may hold as text, never as a pattern", async () => {
    const { db, sam } = await seeded();
    for (const text of ["%", "_", "'; drop table asks; --", "\\"]) {
      const found = await loadInbox(db, sam.id, "assigned", NOW, { search: { text } });
      expect(found.rows).toEqual([]);
    }
  });
});
