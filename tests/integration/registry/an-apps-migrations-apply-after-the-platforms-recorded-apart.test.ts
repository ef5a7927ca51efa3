import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, MIGRATIONS_FOLDER, type MigrationSet, queryRows } from "@/db/client";
import { expenseReview } from "@/examples/expense-review";
import { appMigrationsTable, createRegistry } from "@/lib/registry";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { migrationsBefore } from "@/tests/support/migrations";

function journalLength(folder: string): number {
  return (JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
}

const registry = createRegistry({ apps: [expenseReview] });
const appSets = registry.migrations();
const platformMigrations = journalLength(MIGRATIONS_FOLDER);
const expenseMigrations = journalLength(appSets[0]!.folder);

/** The migration that took the demo's tables out of the platform's schema (databases before it have them from the platform). */
const APPS_OWN_THEIR_TABLES = "0008_platform_tasks";

describe.each(DATABASE_KINDS)("an app's migrations on %s", (kind) => {
  let database: TestDatabase | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = undefined;
  });

  async function count(table: string): Promise<number> {
    const [row] = await queryRows<{ count: number }>(database!.db, sql.raw(`select count(*)::int as count from ${table}`));
    return row!.count;
  }

  async function publicTables(): Promise<string[]> {
    const rows = await queryRows<{ table_name: string }>(database!.db, sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`);
    return rows.map((row) => row.table_name);
  }

  it("apply after the platform's, recorded in a table of the app's own, so neither numbering collides", async () => {
    database = await createTestDatabase(kind, { migrated: false });
    await migrateDatabase(database, [{ folder: MIGRATIONS_FOLDER }, ...appSets]);
    expect(appSets).toEqual([{ folder: path.resolve("examples/expense-review/migrations"), table: appMigrationsTable("expense-review") } satisfies MigrationSet]);
    expect(await count("drizzle.__drizzle_migrations")).toBe(platformMigrations);
    expect(await count(`drizzle.${appMigrationsTable("expense-review")}`)).toBe(expenseMigrations);
    expect(await publicTables()).toEqual(expect.arrayContaining(["claims", "review_tasks", "review_questions", "tasks", "workflow_instances"]));
  });

  it("without the app registered, the platform migrates alone and has none of the app's tables", async () => {
    database = await createTestDatabase(kind, { migrated: false });
    await migrateDatabase(database, [{ folder: MIGRATIONS_FOLDER }, ...createRegistry({ apps: [] }).migrations()]);
    const tables = await publicTables();
    expect(tables).toContain("tasks");
    expect(tables.filter((table) => ["claims", "review_tasks", "review_questions"].includes(table))).toEqual([]);
  });

  it("adopt the tables an older Parley created for the demo, keeping their rows, and apply once", async () => {
    database = await createTestDatabase(kind, { migrated: false });
    folder = migrationsBefore(APPS_OWN_THEIR_TABLES);
    await migrateDatabase(database, folder);
    const claimId = randomUUID();
    await database.db.execute(sql`insert into claims (id, title, amount_cents, merchant, incurred_on) values (${claimId}, 'Kept dinner', 48250, 'Cervejaria Ramiro', '2026-11-03')`);
    await database.db.execute(sql`insert into review_tasks (claim_id, status) values (${claimId}, 'completed')`);
    const constraintsBefore = await count("information_schema.table_constraints where table_name in ('claims', 'review_tasks', 'review_questions')");

    await migrateDatabase(database, [{ folder: MIGRATIONS_FOLDER }, ...appSets]);
    await migrateDatabase(database, [{ folder: MIGRATIONS_FOLDER }, ...appSets]);

    expect(await queryRows(database.db, sql`select c.title, t.status from claims c join review_tasks t on t.claim_id = c.id`)).toEqual([{ title: "Kept dinner", status: "completed" }]);
    expect(await count("information_schema.table_constraints where table_name in ('claims', 'review_tasks', 'review_questions')")).toBe(constraintsBefore);
    expect(await count("drizzle.__drizzle_migrations")).toBe(platformMigrations);
    expect(await count(`drizzle.${appMigrationsTable("expense-review")}`)).toBe(expenseMigrations);
  });
});
