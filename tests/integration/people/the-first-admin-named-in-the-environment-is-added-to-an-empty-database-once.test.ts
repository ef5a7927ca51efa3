import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent, listUsers } from "@/db/queries/users";
import { verifyPassword } from "@/lib/auth/password";
import { addFirstAdmin, firstAdminSetting, prepareFirstAdmin } from "@/lib/first-admin";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

const ADMIN = { email: "root@example.com", password: "a long first password", name: "Rita Root" };

describe("the first admin's setting", () => {
  it("is nothing when PARLEY_ADMIN_EMAIL is unset, and the person otherwise", () => {
    expect(firstAdminSetting({})).toBeNull();
    expect(firstAdminSetting({ PARLEY_ADMIN_EMAIL: " Root@Example.com ", PARLEY_ADMIN_PASSWORD: ADMIN.password })).toEqual({
      email: "root@example.com",
      password: ADMIN.password,
      name: "Admin",
    });
  });

  it("names the variable that is missing or will not do", () => {
    expect(() => firstAdminSetting({ PARLEY_ADMIN_EMAIL: ADMIN.email })).toThrow(/PARLEY_ADMIN_PASSWORD/);
    expect(() => firstAdminSetting({ PARLEY_ADMIN_PASSWORD: ADMIN.password })).toThrow(/without PARLEY_ADMIN_EMAIL/);
    expect(() => firstAdminSetting({ PARLEY_ADMIN_EMAIL: "root", PARLEY_ADMIN_PASSWORD: ADMIN.password })).toThrow(/PARLEY_ADMIN_EMAIL is not an email/);
    expect(() => firstAdminSetting({ PARLEY_ADMIN_EMAIL: ADMIN.email, PARLEY_ADMIN_PASSWORD: "short" })).toThrow(/PARLEY_ADMIN_PASSWORD will not do: Use at least 8/);
  });
});

describe.each(DATABASE_KINDS)("the first admin (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is added to a database with nobody in it, as an admin who signs in with the password, once", async () => {
    database = await createTestDatabase(kind);
    const printed: string[] = [];
    await prepareFirstAdmin(database.db, ADMIN, (line) => printed.push(line));
    await prepareFirstAdmin(database.db, ADMIN, (line) => printed.push(line));
    const people = await listUsers(database.db);
    expect(people.map((person) => [person.email, person.name, person.roles])).toEqual([[ADMIN.email, ADMIN.name, ["admin"]]]);
    expect(await verifyPassword(ADMIN.password, people[0]!.passwordHash)).toBe(true);
    expect(printed).toEqual([`Parley: added the first admin, ${ADMIN.email} (PARLEY_ADMIN_EMAIL), who signs in with PARLEY_ADMIN_PASSWORD.`]);
    expect(printed.join("\n")).not.toContain(ADMIN.password);
  });

  it("is added once when several servers start together", async () => {
    database = await createTestDatabase(kind);
    const outcomes = await Promise.all([1, 2, 3].map(() => addFirstAdmin(database!.db, ADMIN)));
    expect(outcomes.filter((outcome) => outcome.status === "added")).toHaveLength(1);
    expect(await listUsers(database.db)).toHaveLength(1);
  });

  it("is not added to a database someone already uses, and an empty one without the setting says how", async () => {
    database = await createTestDatabase(kind);
    const printed: string[] = [];
    await prepareFirstAdmin(database.db, null, (line) => printed.push(line));
    expect(printed.join("\n")).toMatch(/nobody is in this database yet.*PARLEY_ADMIN_EMAIL and PARLEY_ADMIN_PASSWORD/);

    await insertUsersIfAbsent(database.db, [{ name: "Sam", email: "sam@example.com", roles: ["assignee"] }]);
    expect(await addFirstAdmin(database.db, ADMIN)).toEqual({ status: "not_empty" });
    expect((await listUsers(database.db)).map((person) => person.email)).toEqual(["sam@example.com"]);
  });
});
