import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { INBOX_COUNT_CAP, inboxCountWords, loadInbox } from "@/lib/inbox";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { inDueOrder, seedTeamWaits } from "./seed-team-waits";

const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("an inbox view past the count (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is counted up to 1,000 and says there are more, and still shows its fifty due soonest", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [lee] = await insertUsersIfAbsent(db, [{ email: "lee@parley.test", name: "Lee Okafor", roles: ["assignee"] }]);
    const seeded = await seedTeamWaits(db, NOW, { group: "operations", members: [lee!.id], count: 1_100, overdue: 4 });

    const inbox = await loadInbox(db, lee!.id, "team", NOW, { pageSize: 50 });
    expect(INBOX_COUNT_CAP).toBe(1_000);
    expect(inbox.counts).toMatchObject({ assigned: 0, candidates: 0, team: 1_000, overdue: seeded.filter((wait) => wait.dueAt !== null && wait.dueAt <= NOW).length });
    expect(inbox.countsAtLeast).toEqual({ assigned: false, candidates: false, team: true, overdue: false, snoozed: false, answered: false });
    expect(inboxCountWords(inbox.counts.team, inbox.countsAtLeast.team)).toBe("1,000+");
    expect(inbox.rows.map((row) => row.id)).toEqual(inDueOrder(seeded).slice(0, 50).map((wait) => wait.questionId));

    const searched = await loadInbox(db, lee!.id, "team", NOW, { pageSize: 50, search: { text: "team question" } });
    expect([searched.matching, searched.matchingAtLeast]).toEqual([1_000, true]);
  });
});
