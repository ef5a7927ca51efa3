import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { users, type User } from "@/db/schema";
import { authenticateApiKey, createApiKey, listKeys } from "@/lib/api-keys";
import { deactivatePerson, reactivatePerson } from "@/lib/people";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";
import { addPeople } from "./people-fixture";

describe.each(DATABASE_KINDS)("a deactivated person's personal token (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function adaAndSam(): Promise<[User, User]> {
    database = await createTestDatabase(kind);
    return (await addPeople(database.db, [
      { name: "Ada Admin", roles: ["admin"] },
      { name: "Sam Rivera", roles: ["assignee"] },
    ])) as [User, User];
  }

  it("is refused from the deactivation on, and stays ended once they are reactivated, as their sessions do", async () => {
    const [ada, sam] = await adaAndSam();
    const { db } = database!;
    const token = await createApiKey(db, { kind: "personal", name: "Sam's laptop", by: sam.id, userId: sam.id });
    const agentKey = await createApiKey(db, { kind: "agent", name: "Deploy bot", by: ada.id });

    await deactivatePerson(db, { personId: sam.id, by: ada.id });
    expect(await authenticateApiKey(db, token.secret)).toBeUndefined();
    // An agent key made by an admin is no person's token.
    expect(await authenticateApiKey(db, agentKey.secret)).toBeDefined();

    await reactivatePerson(db, { personId: sam.id, by: ada.id });
    expect(await authenticateApiKey(db, token.secret)).toBeUndefined();
    // Sam sees it revoked on their tokens page, and a token made after coming back works.
    expect((await listKeys(db, "personal", { userId: sam.id }))[0]?.revokedAt).toBeInstanceOf(Date);
    const fresh = await createApiKey(db, { kind: "personal", name: "Sam's new laptop", by: sam.id, userId: sam.id });
    expect(await authenticateApiKey(db, fresh.secret)).toBeDefined();
  });

  it("of a deactivation made before tokens were revoked with it stays ended at reactivation too", async () => {
    const [ada, sam] = await adaAndSam();
    const { db } = database!;
    const token = await createApiKey(db, { kind: "personal", name: "Sam's laptop", by: sam.id, userId: sam.id, now: new Date(Date.now() - 60_000) });
    // Deactivated as an earlier Parley did it: the token left live, refused only while deactivated.
    await db.update(users).set({ deactivatedAt: new Date(), sessionsValidFrom: new Date() }).where(eq(users.id, sam.id));

    await reactivatePerson(db, { personId: sam.id, by: ada.id });
    expect(await authenticateApiKey(db, token.secret)).toBeUndefined();
  });
});
