import { afterEach, describe, expect, it } from "vitest";
import { listAnswerableQuestions } from "@/db/queries/runtime-questions";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { loadInbox } from "@/lib/inbox";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { seedWaits } from "./seed-waits";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("questions due at the same moment (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("are listed longest waiting first: by when they were put to the person, not when they were asked", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [sam] = await insertUsersIfAbsent(db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
    // An agent's question asked four hours ago that reached Sam two hours ago, and one put to Sam three hours ago; neither has a deadline.
    await seedWaits(db, NOW, [
      { assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 4 * HOUR, openedAgoMs: 2 * HOUR, dueInMs: null, question: "Waiting two hours" },
      { assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 3 * HOUR, dueInMs: null, question: "Waiting three hours" },
    ]);
    const inbox = await loadInbox(db, sam!.id, "assigned", NOW);
    expect(inbox.rows.map((row) => row.headline)).toEqual(["Waiting three hours", "Waiting two hours"]);
    expect((await listAnswerableQuestions(db, sam!.id)).map((question) => question.spec.fields[0]!.question)).toEqual(["Waiting three hours", "Waiting two hours"]);
  });
});
