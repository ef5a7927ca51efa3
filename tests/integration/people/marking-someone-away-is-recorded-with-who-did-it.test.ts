import { afterEach, describe, expect, it } from "vitest";
import { listPersonChanges } from "@/db/queries/person-changes";
import { insertUsersIfAbsent } from "@/db/queries/users";
import { changeAway } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("marking someone away (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database?.close());

  it("is recorded on their history with who did it, once per real change", async () => {
    database = await createTestDatabase(kind);
    const [sam, ada] = await insertUsersIfAbsent(database.db, [
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
      { email: "ada@parley.test", name: "Ada Admin", roles: ["admin"] },
    ]);
    await changeAway(database.db, sam!.id, true, ada!.id);
    await changeAway(database.db, sam!.id, true, ada!.id);
    await changeAway(database.db, sam!.id, false, sam!.id);

    const changes = await listPersonChanges(database.db, sam!.id);
    expect(changes.map((change) => ({ kind: change.kind, data: change.data, byName: change.byName }))).toEqual([
      { kind: "away-changed", data: { away: false }, byName: "Sam Rivera" },
      { kind: "away-changed", data: { away: true }, byName: "Ada Admin" },
    ]);
  });
});
