import { afterEach, describe, expect, it } from "vitest";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { authenticateApiKey, createApiKey, revokeKey } from "@/lib/api-keys";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("authenticating an API key (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function withAdmin() {
    database = await createTestDatabase(kind);
    const [ada] = (await insertUsersIfAbsent(database.db, [{ email: "ada@parley.test", name: "Ada Admin", roles: ["admin"] }])) as [User];
    return { db: database.db, ada };
  }

  it("finds the key whose secret is presented, and only that one", async () => {
    const { db, ada } = await withAdmin();
    const deploy = await createApiKey(db, { kind: "agent", name: "Deploy bot", by: ada.id });
    const billing = await createApiKey(db, { kind: "agent", name: "Billing agent", by: ada.id });
    expect(deploy.secret).toMatch(/^pk_[A-Za-z0-9_-]{32}$/);
    expect(deploy.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    expect((await authenticateApiKey(db, deploy.secret))?.id).toBe(deploy.key.id);
    expect((await authenticateApiKey(db, billing.secret))?.name).toBe("Billing agent");
  });

  it("finds nothing for a wrong, altered, malformed or empty secret", async () => {
    const { db, ada } = await withAdmin();
    const { secret } = await createApiKey(db, { kind: "agent", name: "Deploy bot", by: ada.id });
    const altered = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    for (const wrong of [altered, `${secret}x`, secret.slice(0, -1), `pt_${secret.slice(3)}`, `pk_${"A".repeat(32)}`, "", " ", `${secret} `, "' or 1=1 --", "x".repeat(10_000)]) {
      expect(await authenticateApiKey(db, wrong), wrong.slice(0, 40)).toBeUndefined();
    }
  });

  it("refuses a revoked key at once, while the others still work", async () => {
    const { db, ada } = await withAdmin();
    const revoked = await createApiKey(db, { kind: "agent", name: "Old bot", by: ada.id });
    const kept = await createApiKey(db, { kind: "agent", name: "New bot", by: ada.id });
    expect(await authenticateApiKey(db, revoked.secret)).toBeDefined();

    await revokeKey(db, { id: revoked.key.id, kind: "agent", by: null });

    expect(await authenticateApiKey(db, revoked.secret)).toBeUndefined();
    expect((await authenticateApiKey(db, kept.secret))?.id).toBe(kept.key.id);
  });

  it("finds a personal token as its owner's", async () => {
    const { db, ada } = await withAdmin();
    const token = await createApiKey(db, { kind: "personal", name: "Laptop", by: ada.id, userId: ada.id });
    expect(token.secret).toMatch(/^pt_/);
    expect(token.webhookSecret).toBeNull();
    const found = await authenticateApiKey(db, token.secret);
    expect(found).toMatchObject({ kind: "personal", userId: ada.id });
  });
});
