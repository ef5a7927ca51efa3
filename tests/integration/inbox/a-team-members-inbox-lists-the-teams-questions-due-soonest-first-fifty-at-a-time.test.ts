import { afterEach, describe, expect, it } from "vitest";
import { listAnswerableQuestions } from "@/db/queries/runtime-questions";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { loadInbox } from "@/lib/inbox";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { inDueOrder, seedTeamWaits } from "./seed-team-waits";

const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("a team member's inbox (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("lists the team's questions due soonest first, fifty at a time, and the questions API pages them alike", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [lee, noor] = await insertUsersIfAbsent(db, [
      { email: "lee@parley.test", name: "Lee Okafor", roles: ["assignee"] },
      { email: "noor@parley.test", name: "Noor Haddad", roles: ["assignee"] },
    ]);
    const seeded = await seedTeamWaits(db, NOW, { group: "operations", members: [lee!.id, noor!.id], count: 120, overdue: 3 });
    const expected = inDueOrder(seeded).map((wait) => wait.questionId);

    const first = await loadInbox(db, lee!.id, "team", NOW, { pageSize: 50 });
    expect(first.counts).toMatchObject({ assigned: 0, candidates: 0, team: 120, overdue: seeded.filter((wait) => wait.dueAt !== null && wait.dueAt <= NOW).length });
    expect(first.rows.map((row) => row.id)).toEqual(expected.slice(0, 50));
    expect(first.rows[0]!.dueAt).toEqual(inDueOrder(seeded)[0]!.dueAt);
    const second = await loadInbox(db, lee!.id, "team", NOW, { pageSize: 50, after: first.next });
    const last = await loadInbox(db, lee!.id, "team", NOW, { pageSize: 50, after: second.next });
    expect([...second.rows, ...last.rows].map((row) => row.id)).toEqual(expected.slice(50));
    expect(last.next).toBeNull();

    const listed = await listAnswerableQuestions(db, lee!.id, { limit: 50 });
    expect(listed.map((question) => question.id)).toEqual(expected.slice(0, 50));
    const rest = await listAnswerableQuestions(db, lee!.id, { limit: 100, after: listed.at(-1)!.id });
    expect(rest.map((question) => question.id)).toEqual(expected.slice(50));
  });
});
