import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { type PostgresCluster, startPostgresCluster } from "./support/postgres-cluster";
import { type ServerProcess, startServer } from "./support/server";
import { until } from "./support/until";

const CLUSTER_PORT = 30452;
const PORT = 3160;

async function ready(baseUrl: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/api/ready`);
  return { status: response.status, body: await response.json() };
}

describe("readiness while PostgreSQL goes away and comes back", () => {
  let cluster: PostgresCluster | undefined;
  let database: FaultDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill9();
    await database?.drop().catch(() => {});
    await cluster?.destroy();
  });

  it("says not ready (503) while the database is away and ready again once it is back, while liveness answers throughout", async () => {
    cluster = await startPostgresCluster(CLUSTER_PORT);
    database = await createFaultDatabase(cluster.url, "readiness");
    server = await startServer({ port: PORT, databaseUrl: database.url, authSecret: randomBytes(33).toString("base64") });
    const { baseUrl } = server;
    expect(await ready(baseUrl)).toEqual({ status: 200, body: { status: "ready", checks: { database: "reachable", migrations: "applied", worker: "running" } } });

    await cluster.stop();
    const away = await until("readiness says the database is away", async () => {
      const answer = await ready(baseUrl);
      return answer.status === 503 ? answer : undefined;
    }, { timeoutMs: 10_000, intervalMs: 200 });
    expect(away.body).toEqual({ status: "not ready", checks: { database: "unreachable", migrations: "applied", worker: "running" } });
    expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);

    await cluster.start();
    await until("readiness says ready again", async () => (await ready(baseUrl)).status === 200, { timeoutMs: 15_000, intervalMs: 200 });
    expect(server.alive()).toBe(true);
  });
});
