import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { authenticateApiKey, createApiKey, listKeys, revokeKey } from "@/lib/api-keys";
import { AppError } from "@/lib/errors";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

/** The AppError code a call fails with. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return "accepted";
}

describe.each(DATABASE_KINDS)("revoking a personal token (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("is the owner's alone: anyone else finds no such token, and it keeps working", async () => {
    database = await createTestDatabase(kind);
    const { db } = database;
    const [sam, priya] = (await insertUsersIfAbsent(db, [
      { email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] },
      { email: "priya@parley.test", name: "Priya Shah", roles: ["assignee"] },
    ])) as [User, User];
    const token = await createApiKey(db, { kind: "personal", name: "Sam's laptop", by: sam.id, userId: sam.id });

    expect(await refusal(revokeKey(db, { id: token.key.id, kind: "personal", userId: priya.id, by: null }))).toBe("not_found");
    // Not as an agent key either: the kinds are apart.
    expect(await refusal(revokeKey(db, { id: token.key.id, kind: "agent", by: null }))).toBe("not_found");
    expect(await authenticateApiKey(db, token.secret)).toBeDefined();
    expect(await listKeys(db, "personal", { userId: priya.id })).toEqual([]);

    const revoked = await revokeKey(db, { id: token.key.id, kind: "personal", userId: sam.id, by: null });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await authenticateApiKey(db, token.secret)).toBeUndefined();
    expect(await refusal(revokeKey(db, { id: token.key.id, kind: "personal", userId: sam.id, by: null }))).toBe("conflict");
    // Someone else still learns nothing, not even that it was revoked.
    expect(await refusal(revokeKey(db, { id: token.key.id, kind: "personal", userId: priya.id, by: null }))).toBe("not_found");
  });

  it("refuses ids that are no key", async () => {
    database = await createTestDatabase(kind);
    const [sam] = (await insertUsersIfAbsent(database.db, [{ email: "sam@parley.test", name: "Sam Rivera", roles: ["assignee"] }])) as [User];
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "' or '1'='1"]) {
      expect(await refusal(revokeKey(database.db, { id, kind: "personal", userId: sam.id, by: null }))).toBe("not_found");
    }
  });
});
