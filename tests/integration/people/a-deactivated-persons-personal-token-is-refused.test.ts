import { afterEach, describe, expect, it } from "vitest";
import type { User } from "@/db/schema";
import { authenticateApiKey, createApiKey } from "@/lib/api-keys";
import { deactivatePerson, reactivatePerson } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { addPeople } from "./people-fixture";

describe.each(DATABASE_KINDS)("a deactivated person's personal token (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is refused while they are deactivated, and works again once they are reactivated", async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    const [ada, sam] = (await addPeople(db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Sam Rivera", roles: ["assignee"] },
    ])) as [User, User];
    const token = await createApiKey(db, { kind: "personal", name: "Sam's laptop", by: sam.id, userId: sam.id });
    const agentKey = await createApiKey(db, { kind: "agent", name: "Deploy bot", by: ada.id });

    await deactivatePerson(db, { personId: sam.id, by: ada.id });
    expect(await authenticateApiKey(db, token.secret)).toBeUndefined();
    // An agent key made by an admin is no person's token.
    expect(await authenticateApiKey(db, agentKey.secret)).toBeDefined();

    await reactivatePerson(db, { personId: sam.id, by: ada.id });
    expect(await authenticateApiKey(db, token.secret)).toBeDefined();
  });
});
