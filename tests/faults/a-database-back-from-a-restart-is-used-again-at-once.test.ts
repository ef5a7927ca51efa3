import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { type PostgresCluster, startPostgresCluster } from "./support/postgres-cluster";

/*
 * Found by the PostgreSQL restart test: pages requested around a PostgreSQL restart hung for up to
 * 30 s after it was back. postgres.js waits before reconnecting a connection that closed with an error, for
 * `backoff(retries)` seconds — by default (0.5–1) × min(3^retries / 100, 20), where `retries`
 * counts every failed connection of the pool since the last success. A busy app's queries during an
 * outage of a second run that count up in no time, so once the database is back its connections
 * stay away for up to 20 s each, and the queries queued on them wait (12–16 s here). db/client.ts
 * passes no `backoff`; capping it (e.g. `backoff: (n) => Math.min(0.05 * 2 ** n, 1)`) bounds the wait.
 */
describe("a database back from a restart", () => {
  let cluster: PostgresCluster | undefined;
  afterAll(async () => cluster?.destroy());

  it("answers the queries made while it was away within seconds of being back, however many connection attempts failed", async () => {
    cluster = await startPostgresCluster(30453);
    const database = await openDatabase({ kind: "postgres", url: cluster.url, maxConnections: 4 });
    const client = database.postgres!;
    await Promise.all(Array.from({ length: 4 }, () => client`select pg_sleep(0.05)`));
    await cluster.stop();
    // A busy server's requests while the database is away (each connection attempt fails).
    const duringOutage: Promise<unknown>[] = [];
    for (let attempt = 0; attempt < 20; attempt++) {
      duringOutage.push(...Array.from({ length: 4 }, () => client`select 1`.catch(() => {})));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await cluster.start();
    const backAt = Date.now();
    // Requests that came in while it was away are held, not refused: they should go through now.
    await Promise.all(duringOutage);
    const settled = Date.now() - backAt;
    await database.close();
    expect(settled).toBeLessThan(3_000);
  });
});
