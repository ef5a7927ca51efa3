import { readdirSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase, MIGRATIONS_FOLDER, queryRows } from "@/db/client";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "../support/databases";
import { sql } from "drizzle-orm";

const committedMigrations = readdirSync(MIGRATIONS_FOLDER).filter((name) => name.endsWith(".sql")).length;

describe.each(DATABASE_KINDS)("migrations on %s", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function appliedMigrations(db: TestDatabase["db"]) {
    const rows = await queryRows<{ count: number }>(db, sql`select count(*)::int as count from drizzle.__drizzle_migrations`);
    return rows[0]?.count;
  }

  it("apply every committed migration to an empty database", async () => {
    database = await createTestDatabase(kind, { migrated: false });
    await migrateDatabase(database);
    expect(await appliedMigrations(database.db)).toBe(committedMigrations);
    const tables = await queryRows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = 'public'`,
    );
    expect(tables.map((row) => row.table_name)).toContain("users");
  });

  it("change nothing when applied a second time", async () => {
    database = await createTestDatabase(kind, { migrated: false });
    await migrateDatabase(database);
    await database.db.execute(sql`insert into users (email, name) values ('kept@parley.test', 'Kept')`);
    await migrateDatabase(database);
    expect(await appliedMigrations(database.db)).toBe(committedMigrations);
    const people = await queryRows<{ email: string }>(database.db, sql`select email from users`);
    expect(people).toEqual([{ email: "kept@parley.test" }]);
  });
});
