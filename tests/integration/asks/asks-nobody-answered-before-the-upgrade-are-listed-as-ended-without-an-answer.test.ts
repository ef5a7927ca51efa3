import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, queryRows } from "@/db/client";
import { findRun } from "@/db/queries/runs";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { migrationsBefore } from "@/tests/support/migrations";

/** The migration that ends an unanswered ask's run as a run without an answer. */
const MIGRATION = "0027_api_asks_nobody_answered_ended_without_an_answer";

describe.each(DATABASE_KINDS)("upgrading a database with asks nobody answered on %s", (kind) => {
  let database: TestDatabase | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it("lists an ask that ended unanswered as ended without an answer, with its reason, and an answered one as completed", async () => {
    database = await createTestDatabase(kind, { migrated: false });
    folder = migrationsBefore(MIGRATION);
    await migrateDatabase(database, folder);
    const { db } = database;
    const key = randomUUID();
    await db.execute(sql`insert into api_keys (id, kind, name, secret_hash, secret_prefix, created_at) values (${key}, 'agent', 'Bot', 'h', 'pk_x', now())`);
    const [unanswered, answered] = [randomUUID(), randomUUID()];
    for (const [ask, state, reason] of [[unanswered, "Unanswered", "expired"], [answered, "Answered", null]] as const) {
      await db.execute(sql`insert into api_asks (id, api_key_id, request_hash, question_id, status, question_status, title, "to", attempts, created_at)
        values (${ask}, ${key}, 'r', ${randomUUID()}, 'completed', ${reason ? "nothing" : "answered"}, 'Ship it?', '"sam@parley.test"'::json, 3, now())`);
      await db.execute(sql`insert into workflow_instances (workflow, task_id, state, status) values ('ApiAsk', ${ask}, ${state}, 'completed')`);
      await db.execute(sql`insert into asks (task_id, workflow, spec, status, reason, asked_at, answered_at)
        values (${ask}, 'ApiAsk', '{"fields": []}'::jsonb, ${reason ? "nothing" : "answered"}, ${reason}, now(), now())`);
    }

    await migrateDatabase(database);

    expect(await findRun(db, unanswered)).toMatchObject({ status: "failed", runState: "nothing", nothingReason: "expired" });
    expect(await findRun(db, answered)).toMatchObject({ status: "completed", runState: "completed" });
    const asks = await queryRows<{ id: string; status: string }>(db, sql`select id, status from api_asks order by status`);
    expect(asks).toEqual([
      { id: answered, status: "completed" },
      { id: unanswered, status: "failed" },
    ]);
  });
});
