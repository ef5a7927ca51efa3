import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { insertGroupMembers } from "@/db/queries/groups";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { createGroup, GROUP_MEMBERS_SHOWN, listGroupsAndMembers, readGroupMembers } from "@/lib/groups";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

/** A group called `name` with `size` members, "Member 000", "Member 001"…, and one person in no group. */
async function team(db: Db, name: string, size: number): Promise<string> {
  const people = await insertUsersIfAbsent(db, [
    ...Array.from({ length: size }, (_, index) => ({ name: `Member ${String(index).padStart(3, "0")}`, email: `${name}-${index}@parley.test`, roles: ["assignee" as const] })),
    { name: "Aaron Outsider", email: `outsider-${name}@parley.test`, roles: ["assignee" as const] },
  ]);
  const group = await createGroup(db, { name });
  await insertGroupMembers(
    db,
    people.filter((person) => person.name.startsWith("Member")).map((person) => ({ groupId: group.id, userId: person.id })),
  );
  return group.id;
}

describe.each(DATABASE_KINDS)("a big team (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is listed with its member count and only its first members by name", async () => {
    database = await createTestDatabase(kind);
    await team(database.db, "support", 200);
    await createGroup(database.db, { name: "empty" });
    const groups = await listGroupsAndMembers(database.db);
    expect(groups.map((group) => [group.name, group.memberCount, group.members.length])).toEqual([
      ["empty", 0, 0],
      ["support", 200, GROUP_MEMBERS_SHOWN],
    ]);
    expect(groups[1]!.members.map((member) => member.name)).toEqual(Array.from({ length: GROUP_MEMBERS_SHOWN }, (_, index) => `Member ${String(index).padStart(3, "0")}`));
  });

  it("has its members read a page at a time, after a cursor, to the last", async () => {
    database = await createTestDatabase(kind);
    const groupId = await team(database.db, "support", 120);
    const first = await readGroupMembers(database.db, groupId);
    expect(first?.memberCount).toBe(120);
    expect(first?.members.map((member) => member.name)).toEqual(Array.from({ length: 50 }, (_, index) => `Member ${String(index).padStart(3, "0")}`));
    const second = await readGroupMembers(database.db, groupId, { after: first!.next! });
    expect(second?.members.map((member) => member.name)).toEqual(Array.from({ length: 50 }, (_, index) => `Member ${String(index + 50).padStart(3, "0")}`));
    const third = await readGroupMembers(database.db, groupId, { after: second!.next! });
    expect(third?.members).toHaveLength(20);
    expect(third?.next).toBeUndefined();
  });

  it("is not found by an id that names no group", async () => {
    database = await createTestDatabase(kind);
    expect(await readGroupMembers(database.db, "00000000-0000-4000-8000-000000000000")).toBeUndefined();
    expect(await readGroupMembers(database.db, "not-an-id")).toBeUndefined();
  });
});
