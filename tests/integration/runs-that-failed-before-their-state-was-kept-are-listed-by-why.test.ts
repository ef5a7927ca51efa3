import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase } from "@/db/client";
import { findRun } from "@/db/queries/runs";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { migrationsBefore } from "@/tests/support/migrations";

/** The migration that keeps a run's state (and why a question got no answer) on the run. */
const KEPT_STATE_MIGRATION = "0017_runs_keep_their_state_and_are_listed_by_index";

describe.each(DATABASE_KINDS)("upgrading a database with ended runs on %s", (kind) => {
  let database: TestDatabase | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it("lists a run that had failed because nobody answered as ended without an answer, and other runs as they were", async () => {
    database = await createTestDatabase(kind, { migrated: false });
    folder = migrationsBefore(KEPT_STATE_MIGRATION);
    await migrateDatabase(database, folder);
    const { db } = database;
    const [unanswered, expired, broken, done] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (const [taskId, status] of [[unanswered, "failed"], [expired, "failed"], [broken, "failed"], [done, "completed"]] as const) {
      const instanceId = randomUUID();
      await db.execute(sql`insert into workflow_instances (id, workflow, task_id, state, status) values (${instanceId}, 'ReviewClaim', ${taskId}, 'Ended', ${status})`);
      if (taskId === expired) {
        await db.execute(
          sql`insert into slots (workflow_instance_id, workflow, task_id, state, event, status, opened_at)
              values (${instanceId}, 'ReviewClaim', ${taskId}, 'Waiting', 'Answered', 'expired', '2026-11-01T09:00:00Z')`,
        );
      }
    }
    for (const [reason, answeredAt] of [["refused", "2026-11-01T09:00:00Z"], ["away", "2026-11-02T09:00:00Z"]] as const) {
      await db.execute(
        sql`insert into asks (task_id, workflow, spec, status, reason, asked_at, answered_at)
            values (${unanswered}, 'ReviewClaim', '{"fields": []}'::jsonb, 'nothing', ${reason}, '2026-11-01T08:00:00Z', ${answeredAt}::timestamptz)`,
      );
    }

    await migrateDatabase(database);

    expect(await findRun(db, unanswered)).toMatchObject({ runState: "nothing", nothingReason: "away" });
    expect(await findRun(db, expired)).toMatchObject({ runState: "nothing", nothingReason: "expired" });
    expect(await findRun(db, broken)).toMatchObject({ runState: "failed", nothingReason: null });
    expect(await findRun(db, done)).toMatchObject({ runState: "completed", nothingReason: null });
  });
});
