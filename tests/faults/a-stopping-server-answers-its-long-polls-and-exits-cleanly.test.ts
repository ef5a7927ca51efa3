import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys";
import { createFaultDatabase, type FaultDatabase } from "./support/database";
import { adminPostgresUrl } from "./support/prerequisites";
import { type ServerProcess, startServer } from "./support/server";

const PORT = 3162;

describe("a server sent SIGTERM (a deploy replacing it)", () => {
  let database: FaultDatabase | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill9();
    await database?.drop().catch(() => {});
  });

  it("answers a held long-poll at once with the ask as it is and when to ask again, and exits 0 within its bound", async () => {
    database = await createFaultDatabase(adminPostgresUrl(), "shutdown");
    // As `npm start` runs it: Next.js leaves the signal to Parley.
    server = await startServer({
      port: PORT,
      databaseUrl: database.url,
      authSecret: randomBytes(33).toString("base64"),
      env: { NEXT_MANUAL_SIG_HANDLE: "true", PARLEY_SHUTDOWN_TIMEOUT_MS: "10000" },
    });
    const { secret } = await createApiKey(database.database.db, { kind: "agent", name: "Deploy bot", by: null });
    const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
    const asked = await fetch(`${server.baseUrl}/api/v1/asks`, { method: "POST", headers, body: JSON.stringify({ to: "sam@parley.test", title: "Ship it?" }) });
    expect(asked.status).toBe(201);
    const { id } = (await asked.json()) as { id: string };

    const held = fetch(`${server.baseUrl}/api/v1/asks/${id}?wait=60`, { headers });
    // Long enough for the request to be held on the server.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const signalledAt = performance.now();
    process.kill(server.pid, "SIGTERM");

    const answer = await held;
    expect(performance.now() - signalledAt).toBeLessThan(5_000);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(await answer.json()).toMatchObject({ id, status: "open" });

    expect(await server.ended()).toEqual({ code: 0, signal: null });
    expect(performance.now() - signalledAt).toBeLessThan(10_000);
    expect(server.output()).toContain("Parley: stopped.");
  });
});
