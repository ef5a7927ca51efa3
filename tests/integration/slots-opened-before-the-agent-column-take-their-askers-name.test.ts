import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, queryRows } from "@/db/client";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { migrationsBefore } from "@/tests/support/migrations";

/** The migration that gave slots their agent column. */
const AGENT_COLUMN_MIGRATION = "0007_slot_agent";

describe.each(DATABASE_KINDS)("upgrading a database on %s", (kind) => {
  let database: TestDatabase | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it("names each existing slot after the agent that asked first through it, and a flow's own slot after nobody", async () => {
    database = await createTestDatabase(kind, { migrated: false });
    folder = migrationsBefore(AGENT_COLUMN_MIGRATION);
    await migrateDatabase(database, folder);
    const { db } = database;
    const taskId = randomUUID();
    const instanceId = randomUUID();
    const agentSlot = randomUUID();
    const flowSlot = randomUUID();
    await db.execute(sql`insert into workflow_instances (id, workflow, task_id, state, status) values (${instanceId}, 'ReviewClaim', ${taskId}, 'Waiting', 'waiting')`);
    for (const [slotId, status] of [[agentSlot, "finished"], [flowSlot, "expired"]] as const) {
      await db.execute(
        sql`insert into slots (id, workflow_instance_id, workflow, task_id, state, event, status, opened_at)
            values (${slotId}, ${instanceId}, 'ReviewClaim', ${taskId}, 'Waiting', 'Answered', ${status}, '2026-11-01T09:00:00Z')`,
      );
    }
    const asks: [slotId: string, agent: string | null, askedAt: string][] = [
      [agentSlot, "Clerk", "2026-11-01T09:05:00Z"],
      [agentSlot, "Auditor", "2026-11-01T09:00:00Z"],
      [flowSlot, null, "2026-11-01T09:00:00Z"],
    ];
    for (const [slotId, agent, askedAt] of asks) {
      await db.execute(
        sql`insert into asks (task_id, agent, workflow, slot_id, spec, status, asked_at)
            values (${taskId}, ${agent}, 'ReviewClaim', ${slotId}, '{"fields": []}'::jsonb, 'answered', ${askedAt}::timestamptz)`,
      );
    }

    await migrateDatabase(database);

    const rows = await queryRows<{ id: string; agent: string | null }>(db, sql`select id, agent from slots`);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.agent]))).toEqual({ [agentSlot]: "Auditor", [flowSlot]: null });
  });
});
