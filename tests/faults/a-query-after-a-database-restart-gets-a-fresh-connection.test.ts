import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { type PostgresCluster, startPostgresCluster } from "./support/postgres-cluster";

/*
 * Found by the PostgreSQL restart test: a page requested a second or three after PostgreSQL was back
 * failed with "terminating connection due to administrator command" (57P01) — the error of a
 * connection that died in the restart. postgres.js 3.4.9 keeps a FATAL error that arrives while a
 * query runs (`errorResponse` in src/connection.js) until the next ReadyForQuery; when the socket
 * closes first, nothing clears it, and the next connection in that slot hands it to its first query
 * (porsager/postgres#1223 is the same replay during start-up). Parley's client (db/client.ts) meets
 * it on every restart under load: one failed request per connection that had a query in flight.
 */
describe("the first query after a database restart", () => {
  let cluster: PostgresCluster | undefined;
  afterAll(async () => cluster?.destroy());

  it("runs on a fresh connection, not with the error of the one that died", async () => {
    cluster = await startPostgresCluster(30452);
    const database = await openDatabase({ kind: "postgres", url: cluster.url, maxConnections: 1 });
    const client = database.postgres as postgres.Sql;
    await client`select 1`;
    const inFlight = client`select pg_sleep(10)`.catch((error: { code?: string }) => error.code);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await cluster.restart();
    expect(await inFlight).toBe("CONNECTION_CLOSED");
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const first = await client`select 1 as ok`.then(
      () => "ok",
      (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
    );
    await database.close();
    expect(first).toBe("ok");
  });
});
