import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { databasePools, openDatabase } from "@/db/client";
import { createMetrics } from "@/lib/metrics";

const url = process.env.PARLEY_TEST_POSTGRES_URL?.trim();

describe.skipIf(!url)("a PostgreSQL pool's figures (postgres)", () => {
  it("count the statements and transactions holding or waiting for a connection, and drop the pool once it is closed", async () => {
    const database = await openDatabase({ kind: "postgres", url: url!, maxConnections: 2, pool: "pool-test" });
    const mine = () => databasePools().find((pool) => pool.name === "pool-test");
    try {
      expect(mine()).toEqual({ name: "pool-test", size: 2, busy: 0 });
      // Three at once on two connections: two hold one, the third waits — all three are busy. (A drizzle query runs once it is awaited.)
      const sleeping = [
        database.db.execute(sql`select pg_sleep(0.5)`).then(() => {}),
        database.db.execute(sql`select pg_sleep(0.5)`).then(() => {}),
        database.db.transaction(async (tx) => {
          await tx.execute(sql`select pg_sleep(0.2)`);
          await tx.execute(sql`select pg_sleep(0.2)`);
        }),
      ];
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(mine()?.busy).toBe(3);
      const metrics = createMetrics({ counts: () => Promise.reject(new Error("not read here")), lastDay: () => Promise.reject(new Error("not read here")), pools: databasePools });
      const { body } = await metrics.render();
      expect(body).toContain('parley_database_pool_size{pool="pool-test"} 2\n');
      expect(body).toContain('parley_database_pool_busy{pool="pool-test"} 3\n');
      await Promise.all(sleeping);
      expect(mine()?.busy).toBe(0);
    } finally {
      await database.close();
    }
    expect(mine()).toBeUndefined();
  });
});
