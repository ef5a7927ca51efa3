import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { readEndedWithoutAnswer } from "@/db/queries/sla";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

const HOUR = 3_600_000;
const NOW = new Date("2026-11-20T12:00:00.000Z");
const WEEK_AGO = new Date(NOW.getTime() - 7 * 24 * HOUR);

interface Seeded {
  slot: "finished" | "expired" | "closed" | "cancelled" | "open";
  /** The question's reason, as the runtime records it when it closes with nothing. */
  reason: string | null;
  endedAgoHours: number;
  title: string;
}

async function seed(db: Db, waits: readonly Seeded[]) {
  const [sam] = await insertUsersIfAbsent(db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }]);
  for (const wait of waits) {
    const [taskId, instanceId, slotId] = [randomUUID(), randomUUID(), randomUUID()];
    const finishedAt = new Date(NOW.getTime() - wait.endedAgoHours * HOUR);
    const openedAt = new Date(finishedAt.getTime() - HOUR);
    const ended = wait.slot !== "open";
    await db.execute(sql`insert into workflow_instances (id, workflow, task_id, state, status) values (${instanceId}, 'ReviewClaim', ${taskId}, 'Waiting', 'waiting')`);
    await db.execute(
      sql`insert into slots (id, workflow_instance_id, workflow, task_id, state, event, assignee_id, status, opened_at, due_at, finished_at, wait_ms)
          values (${slotId}, ${instanceId}, 'ReviewClaim', ${taskId}, 'Waiting', 'Answered', ${sam!.id}, ${wait.slot}, ${openedAt.toISOString()}::timestamptz,
                  ${new Date(openedAt.getTime() + 2 * HOUR).toISOString()}::timestamptz, ${ended ? finishedAt.toISOString() : null}::timestamptz, ${ended ? HOUR : null})`,
    );
    await db.execute(
      sql`insert into asks (task_id, workflow, slot_id, title, spec, status, reason, asked_at)
          values (${taskId}, 'ReviewClaim', ${slotId}, ${wait.title}, ${JSON.stringify({ fields: [] })}::jsonb,
                  ${wait.reason ? "nothing" : wait.slot === "finished" ? "answered" : "open"}, ${wait.reason}, ${openedAt.toISOString()}::timestamptz)`,
    );
  }
}

describe.each(DATABASE_KINDS)("waits that ended without an answer (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database?.close());

  it("are counted by reason, most frequent first, and the latest are listed with theirs", async () => {
    database = await createTestDatabase(kind);
    await seed(database.db, [
      { slot: "expired", reason: null, endedAgoHours: 5, title: "Expired one" },
      { slot: "expired", reason: "expired", endedAgoHours: 6, title: "Expired two" },
      { slot: "closed", reason: "refused", endedAgoHours: 1, title: "Refused" },
      { slot: "closed", reason: "away", endedAgoHours: 2, title: "Away" },
      { slot: "cancelled", reason: null, endedAgoHours: 3, title: "Left behind" },
      // Answered, still open, or before the period: none of these.
      { slot: "finished", reason: null, endedAgoHours: 1, title: "Answered" },
      { slot: "open", reason: null, endedAgoHours: 0, title: "Open" },
      { slot: "closed", reason: "refused", endedAgoHours: 24 * 9, title: "Long ago" },
    ]);
    const ended = await readEndedWithoutAnswer(database.db, WEEK_AGO, NOW);
    expect(ended.byReason).toEqual([
      { reason: "expired", count: 2 },
      { reason: "away", count: 1 },
      { reason: "cancelled", count: 1 },
      { reason: "refused", count: 1 },
    ]);
    expect(ended.latest.map((row) => [row.headline, row.reason, row.personName])).toEqual([
      ["Refused", "refused", "Sam Rivera"],
      ["Away", "away", "Sam Rivera"],
      ["Left behind", "cancelled", "Sam Rivera"],
      ["Expired one", "expired", "Sam Rivera"],
      ["Expired two", "expired", "Sam Rivera"],
    ]);
  });
});
