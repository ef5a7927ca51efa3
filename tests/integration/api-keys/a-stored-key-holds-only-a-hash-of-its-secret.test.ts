import { afterEach, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/client";
import { insertUsersIfAbsent } from "@/db/queries/users";
import type { User } from "@/db/schema";
import { createApiKey, hashApiSecret, listKeys, revokeKey } from "@/lib/api-keys";
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from "@/tests/support/databases";

describe.each(DATABASE_KINDS)("what is stored of a key (%s)", (kind) => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function storedRow(db: TestDatabase["db"], id: string): Promise<Record<string, unknown>> {
    const [row] = await queryRows<Record<string, unknown>>(db, sql`select * from api_keys where id = ${id}`);
    return row!;
  }

  it("keeps a hash of the secret and its first characters, never the secret", async () => {
    database = await createTestDatabase(kind);
    const [ada] = (await insertUsersIfAbsent(database.db, [{ email: "ada@parley.test", name: "Ada Admin", roles: ["admin"] }])) as [User];
    const agent = await createApiKey(database.db, { kind: "agent", name: "Deploy bot", by: ada.id });
    const personal = await createApiKey(database.db, { kind: "personal", name: "Laptop", by: ada.id, userId: ada.id });

    for (const created of [agent, personal]) {
      const row = await storedRow(database.db, created.key.id);
      expect(JSON.stringify(row)).not.toContain(created.secret);
      // Not even most of it: the shown prefix is all there is.
      expect(JSON.stringify(row)).not.toContain(created.secret.slice(0, 16));
      expect(row.secret_hash).toBe(hashApiSecret(created.secret));
      expect(row.secret_prefix).toBe(created.secret.slice(0, 10));
      expect(row.demo_secret).toBeNull();
    }
    // The webhook signing secret must be kept (Parley signs with it), and only the agent key has one.
    expect((await storedRow(database.db, agent.key.id)).webhook_secret).toBe(agent.webhookSecret);
    expect((await storedRow(database.db, personal.key.id)).webhook_secret).toBeNull();
    // What screens list has no secret either.
    expect(JSON.stringify(await listKeys(database.db, "agent"))).not.toContain(agent.secret);
    expect(JSON.stringify(await listKeys(database.db, "agent"))).not.toContain(agent.webhookSecret);
  });

  it("keeps the demo key's secret, for demo mode to show, until it is revoked", async () => {
    database = await createTestDatabase(kind);
    const demo = await createApiKey(database.db, { kind: "agent", name: "Demo agent", by: null, demo: true });
    expect((await storedRow(database.db, demo.key.id)).demo_secret).toBe(demo.secret);
    expect((await listKeys(database.db, "agent"))[0]).toMatchObject({ demoSecret: demo.secret, demoWebhookSecret: demo.webhookSecret });

    await revokeKey(database.db, { id: demo.key.id, kind: "agent", by: null });
    const row = await storedRow(database.db, demo.key.id);
    expect(row.demo_secret).toBeNull();
    expect(JSON.stringify(row)).not.toContain(demo.secret);
    expect((await listKeys(database.db, "agent"))[0]).toMatchObject({ demoSecret: null, demoWebhookSecret: null });
  });
});
