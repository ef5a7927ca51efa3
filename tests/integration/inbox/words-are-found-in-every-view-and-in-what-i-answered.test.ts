import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { loadInbox } from "@/lib/inbox";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { seedWaits } from "./seed-waits";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");

describe.each(DATABASE_KINDS)("words looked for in the inbox (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** Sam has a Lisbon question in each view — assigned, shared with Lee, put to their team — and answered one. */
  async function seeded() {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [sam, lee] = await insertUsersIfAbsent(db, [
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
      { email: "lee@parley.test", name: "Lee Okafor", roles: ["assignee"] },
    ]);
    const [assigned, shared, team, answered, other] = await seedWaits(db, NOW, [
      { assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 3 * HOUR, dueInMs: HOUR, question: "What was the Lisbon dinner for?" },
      { assignee: null, candidates: [sam!.id, lee!.id], askedAgoMs: 2 * HOUR, dueInMs: 2 * HOUR, question: "Which Lisbon hotel did you book?" },
      { assignee: null, candidates: [], askedAgoMs: HOUR, dueInMs: 3 * HOUR, question: "Is the Lisbon offsite still on?" },
      {
        assignee: sam!.id,
        candidates: [sam!.id],
        askedAgoMs: 5 * HOUR,
        dueInMs: null,
        slotStatus: "finished",
        status: "answered",
        finishedBy: sam!.id,
        finishedAgoMs: 4 * HOUR,
        answeredBy: sam!.id,
        answeredAgoMs: 4 * HOUR,
        question: "How was the taxi paid?",
      },
      { assignee: sam!.id, candidates: [sam!.id], askedAgoMs: HOUR, dueInMs: HOUR, question: "Who flew to Oslo?" },
    ]);
    const groupId = randomUUID();
    await db.execute(sql`insert into groups (id, name) values (${groupId}, 'finance')`);
    await db.execute(sql`insert into group_members (group_id, user_id) values (${groupId}, ${sam!.id}), (${groupId}, ${lee!.id})`);
    await db.execute(sql`update slots set candidate_group_ids = array[${groupId}::uuid] where id = ${team!.slotId}`);
    await db.execute(sql`update asks set answer = '{"answer": "bank_transfer"}'::jsonb where id = ${answered!.questionId}`);
    return { db, sam: sam!, ids: { assigned: assigned!, shared: shared!, team: team!, answered: answered!, other: other! } };
  }

  it("finds them in every view, whichever view they were typed in, and says which view each question is in", async () => {
    const { db, sam, ids } = await seeded();
    const found = await loadInbox(db, sam.id, "candidates", NOW, { search: { text: "lisbon" } });
    expect(found.everywhere).toBe(true);
    expect(found.rows.map((row) => [row.id, row.view])).toEqual([
      [ids.assigned.questionId, "assigned"],
      [ids.shared.questionId, "candidates"],
      [ids.team.questionId, "team"],
    ]);
    expect(found.matching).toBe(3);
  });

  it("finds what I answered by the answer I gave, written as its label reads", async () => {
    const { db, sam, ids } = await seeded();
    const found = await loadInbox(db, sam.id, "assigned", NOW, { search: { text: "Bank transfer" } });
    expect(found.rows).toEqual([]);
    expect(found.answered.map((row) => row.id)).toEqual([ids.answered.questionId]);
    expect(found.answered[0]!.answerLine).toContain("bank_transfer");
  });

  it("finds a question by the words of any of its fields, not only the first", async () => {
    const { db, sam, ids } = await seeded();
    await db.execute(
      sql`update asks set spec = jsonb_set(spec, '{fields}', spec -> 'fields' || '[{"path": "city", "name": "city", "question": "Which city did the receipt come from?", "kind": "text", "optional": false, "nullable": false, "hasDefault": false, "hints": {}}]'::jsonb)
           where id = ${ids.other.questionId}`,
    );
    const found = await loadInbox(db, sam.id, "assigned", NOW, { search: { text: "receipt" } });
    expect(found.rows.map((row) => row.id)).toEqual([ids.other.questionId]);
  });

  it("finds a flow's questions by the flow's name as people know it", async () => {
    const { db, sam } = await seeded();
    // Every seeded question is the Expense review flow's (ReviewClaim); the words are in no question's text.
    const found = await loadInbox(db, sam.id, "assigned", NOW, { search: { text: "expense review" } });
    expect(found.matching).toBe(4);
  });

  it("keeps to the view when only who asks or when it is due is chosen", async () => {
    const { db, sam, ids } = await seeded();
    const found = await loadInbox(db, sam.id, "assigned", NOW, { search: { due: "day" } });
    expect(found.everywhere).toBe(false);
    expect(found.rows.map((row) => row.id)).toEqual([ids.assigned.questionId, ids.other.questionId]);
  });
});
