import { afterEach, describe, expect, it } from "vitest";
import type { User } from "@/db/schema";
import { addGroupMember, createGroup, readGroupMembers } from "@/lib/groups";
import { deactivatePerson } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { addPeople, refusal } from "./people-fixture";

describe.each(DATABASE_KINDS)("adding to a group (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("refuses a deactivated person, whatever id the form sent", async () => {
    database = await createTestDatabase(kind);
    const [ada, sam] = (await addPeople(database.db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Sam Rivera", roles: ["assignee"] },
    ])) as [User, User];
    const finance = await createGroup(database.db, { name: "finance" });
    await deactivatePerson(database.db, { personId: sam.id, by: ada.id });
    expect(await refusal(addGroupMember(database.db, { groupId: finance.id, userId: sam.id, by: ada.id }))).toEqual({
      code: "conflict",
      message: "Sam Rivera is deactivated: reactivate them before adding them to a group.",
      path: "userId",
    });
    expect((await readGroupMembers(database.db, finance.id))?.memberCount).toBe(0);
  });
});
