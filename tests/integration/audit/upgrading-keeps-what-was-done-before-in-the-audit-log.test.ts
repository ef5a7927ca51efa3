import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase } from "@/db/client";
import { loadAuditPage } from "@/lib/audit";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { migrationsBefore } from "@/tests/support/migrations";

/** The migration that starts the audit log. */
const AUDIT_MIGRATION = "0026_admins_read_who_did_what";

describe.each(DATABASE_KINDS)("upgrading a database with history to the audit log on %s", (kind) => {
  let database: TestDatabase | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  it("lists the answers, declines, reassignments, changes to people and keys recorded before it, in time order", async () => {
    database = await createTestDatabase(kind, { migrated: false });
    folder = migrationsBefore(AUDIT_MIGRATION);
    await migrateDatabase(database, folder);
    const { db } = database;
    const [ada, sam] = [randomUUID(), randomUUID()];
    await db.execute(sql`insert into users (id, email, name, roles) values
      (${ada}, 'ada@parley.test', 'Ada Admin', '{admin}'), (${sam}, 'sam@parley.test', 'Sam Rivera', '{assignee}')`);
    const [task, questionId] = [randomUUID(), randomUUID()];
    await db.execute(sql`insert into asks (id, task_id, workflow, title, spec, status, asked_at) values
      (${questionId}, ${task}, 'ReviewClaim', 'Why a dinner?', '{"fields": []}'::jsonb, 'answered', '2026-11-01T08:00:00Z')`);
    await db.execute(sql`insert into run_events (task_id, kind, data, at) values
      (${task}, 'slot-reassigned', jsonb_build_object('from', ${ada}::text, 'to', ${sam}::text, 'by', ${ada}::text), '2026-11-01T09:00:00Z'),
      (${task}, 'answered', jsonb_build_object('questionId', ${questionId}::text, 'by', ${sam}::text), '2026-11-01T10:00:00Z'),
      (${task}, 'nothing', jsonb_build_object('questionId', ${questionId}::text, 'reason', 'expired', 'by', null), '2026-11-01T11:00:00Z'),
      (${task}, 'state-entered', '{}'::jsonb, '2026-11-01T12:00:00Z')`);
    await db.execute(sql`insert into person_changes (person_id, by_id, kind, data, at) values
      (${sam}, ${ada}, 'roles-changed', '{"from": ["assignee"], "to": ["assignee", "operator"]}'::jsonb, '2026-11-02T09:00:00Z')`);
    await db.execute(sql`insert into api_keys (kind, name, secret_hash, secret_prefix, created_by, created_at, revoked_at) values
      ('agent', 'Release bot', 'hash', 'pk_live', ${ada}, '2026-11-03T09:00:00Z', '2026-11-04T09:00:00Z')`);

    await migrateDatabase(database);

    const { lines } = await loadAuditPage(db, {}, { workflowLabel: (name) => name });
    expect(lines.map((line) => [line.at.toISOString(), line.actor.name, line.verb, line.subject?.label ?? null, line.detail])).toEqual([
      ["2026-11-04T09:00:00.000Z", "Parley", "revoked the agent key", "“Release bot”", null],
      ["2026-11-03T09:00:00.000Z", "Ada Admin", "made the agent key", "“Release bot”", null],
      ["2026-11-02T09:00:00.000Z", "Ada Admin", "changed", "Sam Rivera", "Roles: assignee → assignee, operator"],
      ["2026-11-01T10:00:00.000Z", "Sam Rivera", "answered", "“Why a dinner?”", null],
      ["2026-11-01T09:00:00.000Z", "Ada Admin", "reassigned", "a question", "from Ada Admin to Sam Rivera"],
    ]);
  });
});
