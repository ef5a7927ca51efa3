import { afterEach, describe, expect, it } from "vitest";
import type { User } from "@/db/schema";
import { addGroupMember, createGroup, listGroupsAndMembers, removeGroupMember, renameGroup } from "@/lib/groups";
import { readPersonDetail } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { addPeople, refusal } from "./people-fixture";

describe.each(DATABASE_KINDS)("a group (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is named trimmed and lower-cased", async () => {
    database = await createTestDatabase(kind);
    expect((await createGroup(database.db, { name: "  Finance " })).name).toBe("finance");
  });

  it("cannot take a name another group has, in any case or spacing, and says so on the name", async () => {
    database = await createTestDatabase(kind);
    await createGroup(database.db, { name: "on-call" });
    expect(await refusal(createGroup(database.db, { name: " On-Call" }))).toEqual({ code: "conflict", message: "There is already a group called “on-call”.", path: "name" });
    expect((await listGroupsAndMembers(database.db)).map((group) => group.name)).toEqual(["on-call"]);
  });

  it.each([
    ["   ", "Give the group a name, e.g. finance or on-call."],
    ["x".repeat(65), "A group's name is at most 64 characters."],
    ["fin\nance", "A group's name is one line of plain text: no control characters."],
  ])("refuses the name %j on the name field", async (name, message) => {
    database = await createTestDatabase(kind);
    expect(await refusal(createGroup(database.db, { name }))).toEqual({ code: "invalid_input", message, path: "name" });
  });

  it("is renamed trimmed and lower-cased, keeping its members", async () => {
    database = await createTestDatabase(kind);
    const [sam] = await addPeople(database.db, [{ name: "Sam Rivera", roles: ["assignee"] }]);
    const group = await createGroup(database.db, { name: "finance" });
    await addGroupMember(database.db, { groupId: group.id, userId: sam!.id, by: sam!.id });
    expect((await renameGroup(database.db, { groupId: group.id, name: "  Accounts Payable " })).name).toBe("accounts payable");
    expect((await listGroupsAndMembers(database.db)).map((each) => [each.id, each.name, each.members.map((member) => member.id)])).toEqual([[group.id, "accounts payable", [sam!.id]]]);
  });

  it("cannot be renamed to a name another group has, and says so on the name", async () => {
    database = await createTestDatabase(kind);
    await createGroup(database.db, { name: "on-call" });
    const finance = await createGroup(database.db, { name: "finance" });
    expect(await refusal(renameGroup(database.db, { groupId: finance.id, name: "ON-CALL" }))).toEqual({ code: "conflict", message: "There is already a group called “on-call”.", path: "name" });
    expect((await listGroupsAndMembers(database.db)).map((group) => group.name)).toEqual(["finance", "on-call"]);
  });

  it("takes a name of 64 characters", async () => {
    database = await createTestDatabase(kind);
    expect((await createGroup(database.db, { name: "y".repeat(64) })).name).toHaveLength(64);
  });

  it("records each member added and removed on that person's page, with who did it", async () => {
    database = await createTestDatabase(kind);
    const [ada, sam] = (await addPeople(database.db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Sam Rivera", roles: ["assignee"] },
    ])) as [User, User];
    const finance = await createGroup(database.db, { name: "finance" });
    await addGroupMember(database.db, { groupId: finance.id, userId: sam.id, by: ada.id });
    expect((await listGroupsAndMembers(database.db))[0]!.members.map((member) => member.name)).toEqual(["Sam Rivera"]);
    expect(await refusal(addGroupMember(database.db, { groupId: finance.id, userId: sam.id, by: ada.id }))).toMatchObject({ code: "conflict", message: "Sam Rivera is already in finance." });
    await removeGroupMember(database.db, { groupId: finance.id, userId: sam.id, by: ada.id });

    const changes = (await readPersonDetail(database.db, sam.id))!.changes;
    expect(changes.map((change) => [change.kind, change.data.group, change.byName])).toEqual([
      ["group-removed", "finance", "Ada Admin"],
      ["group-added", "finance", "Ada Admin"],
    ]);
    expect((await listGroupsAndMembers(database.db))[0]!.members).toEqual([]);
  });
});
