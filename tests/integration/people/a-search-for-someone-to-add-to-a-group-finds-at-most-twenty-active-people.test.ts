import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { addGroupMember, createGroup, PEOPLE_SEARCH_LIMIT, searchPeopleToAdd } from "@/lib/groups";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("a search for someone to add to a group (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("finds at most twenty people by name, and says more match", async () => {
    database = await createTestDatabase(kind);
    await insertUsersIfAbsent(
      database.db,
      Array.from({ length: 30 }, (_, index) => ({ name: `Tester ${String(index).padStart(2, "0")}`, email: `t${index}@parley.test`, roles: ["assignee" as const] })),
    );
    const found = await searchPeopleToAdd(database.db, { query: "tester" });
    expect(PEOPLE_SEARCH_LIMIT).toBe(20);
    expect(found.people.map((person) => person.name)).toEqual(Array.from({ length: 20 }, (_, index) => `Tester ${String(index).padStart(2, "0")}`));
    expect(found.more).toBe(true);
  });

  it("never offers a deactivated person", async () => {
    database = await createTestDatabase(kind);
    await insertUsersIfAbsent(database.db, [
      { name: "Dana Active", email: "dana.active@parley.test", roles: ["assignee"] },
      { name: "Dana Gone", email: "dana.gone@parley.test", roles: ["assignee"], deactivatedAt: new Date() },
    ]);
    const found = await searchPeopleToAdd(database.db, { query: "dana" });
    expect(found.people.map((person) => person.name)).toEqual(["Dana Active"]);
    expect(found.more).toBe(false);
  });

  it("finds people by part of their email, and says who is in the chosen group already", async () => {
    database = await createTestDatabase(kind);
    const [ada, bea] = await insertUsersIfAbsent(database.db, [
      { name: "Ada", email: "ada@finance.example", roles: ["admin"] },
      { name: "Bea", email: "bea@finance.example", roles: ["assignee"] },
      { name: "Cy", email: "cy@legal.example", roles: ["assignee"] },
    ]);
    const finance = await createGroup(database.db, { name: "finance" });
    await addGroupMember(database.db, { groupId: finance.id, userId: bea!.id, by: ada!.id });
    const found = await searchPeopleToAdd(database.db, { query: "@FINANCE", groupId: finance.id });
    expect(found.group?.name).toBe("finance");
    expect(found.people.map((person) => [person.name, person.inGroup])).toEqual([
      ["Ada", false],
      ["Bea", true],
    ]);
  });

  it("looks for % and _ literally", async () => {
    database = await createTestDatabase(kind);
    await insertUsersIfAbsent(database.db, [
      { name: "Ada", email: "ada@parley.test", roles: ["assignee"] },
      { name: "Bo_100%", email: "bo@parley.test", roles: ["assignee"] },
    ]);
    expect((await searchPeopleToAdd(database.db, { query: "_100%" })).people.map((person) => person.name)).toEqual(["Bo_100%"]);
    expect((await searchPeopleToAdd(database.db, { query: "%" })).people.map((person) => person.name)).toEqual(["Bo_100%"]);
  });

  it("searches nothing when nothing is typed, and takes no unknown group", async () => {
    database = await createTestDatabase(kind);
    await insertUsersIfAbsent(database.db, [{ name: "Ada", email: "ada@parley.test", roles: ["assignee"] }]);
    const found = await searchPeopleToAdd(database.db, { query: "   ", groupId: "00000000-0000-4000-8000-000000000000" });
    expect(found).toEqual({ query: "", people: [], more: false });
  });
});
