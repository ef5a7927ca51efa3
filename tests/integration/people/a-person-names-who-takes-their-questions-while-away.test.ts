import { afterEach, describe, expect, it } from "vitest";
import { findUserById, insertUsersIfAbsent } from "@/db/queries/users";
import { listPersonChanges } from "@/db/queries/person-changes";
import { setDelegate } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("naming a delegate (%s)", (kind) => {
  let database: TestDatabase;
  afterEach(async () => database?.close());

  async function people() {
    database = await createTestDatabase(kind);
    const [sam, priya, omar] = await insertUsersIfAbsent(database.db, [
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
      { email: "priya@parley.test", name: "Priya Shah", roles: ["assignee"] },
      { email: "omar@parley.test", name: "Omar Operator", roles: ["operator"] },
    ]);
    return { sam: sam!, priya: priya!, omar: omar! };
  }

  it("keeps the delegate and records the change on the person's history", async () => {
    const { sam, priya } = await people();
    await setDelegate(database.db, { personId: sam.id, delegateId: priya.id, by: sam.id });

    expect((await findUserById(database.db, sam.id))?.delegateId).toBe(priya.id);
    const changes = await listPersonChanges(database.db, sam.id);
    expect(changes.map((change) => ({ kind: change.kind, data: change.data }))).toEqual([{ kind: "delegate-changed", data: { to: "Priya Shah" } }]);
  });

  it("refuses themselves, someone who answers no questions, and an unknown id, naming the field", async () => {
    const { sam, omar } = await people();
    for (const delegateId of [sam.id, omar.id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      await expect(setDelegate(database.db, { personId: sam.id, delegateId, by: sam.id })).rejects.toMatchObject({ code: "invalid_input", path: "delegateId" });
    }
    expect((await findUserById(database.db, sam.id))?.delegateId).toBeNull();
  });
});
