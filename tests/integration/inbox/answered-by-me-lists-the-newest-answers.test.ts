import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { type Db, queryRows } from "@/db/client";
import { countAnsweredBy, listAnsweredBy } from "@/db/queries/inbox";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { type SeededWait, seedWaits } from "./seed-waits";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const NOW = new Date("2026-11-20T12:00:00.000Z");

/** What "Answered by me" meant when it read every question and slot: the definition the indexed query must keep. */
async function byDefinition(db: Db, userId: string, limit: number): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select a.id from asks a left join slots s on s.id = a.slot_id
         where a.answered_by = ${userId} or s.finished_by = ${userId}
         order by coalesce(a.answered_at, s.finished_at) desc nulls last
         limit ${limit}`,
  );
  return rows.map((row) => row.id);
}

describe.each(DATABASE_KINDS)("answered by me (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("lists (and counts) the newest answers first: a flow's answered at once, an agent's once its run took the answer, one deposited but not yet taken by when it was deposited", async () => {
    database = await createTestDatabase(kind);
    const db = database.db;
    const [sam, priya] = await insertUsersIfAbsent(db, [
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
      { email: "priya@parley.test", name: "Priya Shah", roles: ["assignee"] },
    ]);
    const waits: SeededWait[] = [];
    for (let index = 0; index < 70; index++) {
      const person = index % 3 === 0 ? priya!.id : sam!.id;
      const finishedAgoMs = (1 + ((index * 41) % 70)) * HOUR + 7 * MINUTE;
      const agent = index % 4 === 0 ? null : "Auditor";
      waits.push({
        assignee: sam!.id,
        candidates: [sam!.id, priya!.id],
        agent,
        askedAgoMs: finishedAgoMs + 2 * HOUR,
        dueInMs: -finishedAgoMs + 2 * HOUR,
        slotStatus: "finished",
        finishedBy: person,
        finishedAgoMs,
        status: "answered",
        answeredBy: person,
        // A flow's question is answered as the slot finishes; an agent's when its run writes the answer, a little later.
        answeredAgoMs: agent ? finishedAgoMs - 5 * MINUTE : finishedAgoMs,
      });
    }
    // Deposited into the slot, the run not yet resumed: nobody recorded on the question yet.
    waits.push({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 3 * HOUR, dueInMs: HOUR, slotStatus: "finished", finishedBy: sam!.id, finishedAgoMs: 30 * MINUTE });
    // An agent's question Sam answered through the question page (recorded on it at once), its run not yet resumed.
    waits.push({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 5 * HOUR, dueInMs: HOUR, slotStatus: "finished", finishedBy: sam!.id, finishedAgoMs: 20 * MINUTE, answeredBy: sam!.id });
    // Closed with nothing and expired: nobody answered.
    waits.push({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 5 * HOUR, dueInMs: -HOUR, slotStatus: "expired", finishedAgoMs: HOUR, status: "nothing", reason: "expired", answeredAgoMs: HOUR });
    waits.push({ assignee: sam!.id, candidates: [sam!.id], askedAgoMs: 5 * HOUR, dueInMs: HOUR, slotStatus: "closed", finishedAgoMs: 10 * MINUTE, status: "nothing", reason: "away", answeredAgoMs: 10 * MINUTE });
    await seedWaits(db, NOW, waits);

    for (const person of [sam!, priya!]) {
      for (const limit of [50, 10, 200]) {
        const listed = await listAnsweredBy(db, person.id, limit);
        const defined = await byDefinition(db, person.id, limit);
        expect(listed.map((row) => row.id), `${person.name}, ${limit}`).toEqual(defined);
        expect(await countAnsweredBy(db, person.id, limit), `${person.name}, ${limit}`).toBe(defined.length);
      }
    }
    const [newest, second] = await listAnsweredBy(db, sam!.id, 2);
    expect(newest).toMatchObject({ status: "open", answeredAt: new Date(NOW.getTime() - 20 * MINUTE) });
    expect(second).toMatchObject({ status: "open", answeredAt: new Date(NOW.getTime() - 30 * MINUTE), waitMs: 150 * MINUTE });
  });
});
