import { createServer, type AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Database, type Db, openDatabase } from "@/db/client";
import { apiRoute } from "@/lib/server/api-request";
import { captureLog } from "@/tests/support/captured-log";
import { errorResponse, type FakePostgres, readyForQuery, startFakePostgres } from "../support/fake-postgres";

// While PostgreSQL restarts, every API request in flight fails on the database: the caller is told to
// come back (503, Retry-After, the API's error shape), not that Parley broke (500). The errors are the
// drivers' own, from postgres.js talking to a closed port or to a server that goes away.

const state = vi.hoisted(() => ({ db: undefined as Db | undefined }));
vi.mock("@/lib/database", async (importOriginal) => ({ ...(await importOriginal<object>()), getDb: async () => state.db! }));

let server: FakePostgres | undefined;
let client: postgres.Sql | undefined;
let database: Database | undefined;

afterEach(async () => {
  await client?.end({ timeout: 0 });
  await database?.close();
  await server?.close();
  server = client = database = state.db = undefined;
  vi.restoreAllMocks();
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A database whose server answers every query as `answer` says. */
async function databaseAnswering(answer: Parameters<typeof startFakePostgres>[0]): Promise<Db> {
  server = await startFakePostgres(answer);
  client = postgres({ host: "127.0.0.1", port: server.port, username: "parley", database: "parley", max: 1, fetch_types: false, onnotice: () => {} });
  return drizzle({ client }) as unknown as Db;
}

/** What an API route answers when its query meets `db`. */
async function answerOver(db: Db): Promise<Response> {
  return apiRoute(new Request("http://parley.test/api/v1/asks"), "/api/v1/asks", async () => {
    await db.execute(sql`select 1`);
    return Response.json({ ok: true });
  });
}

async function expectComeBackLater(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(await response.json()).toEqual({ error: { code: "unavailable", message: expect.stringMatching(/database/) } });
}

describe("an API request whose database cannot be reached", () => {
  it("is answered 503 with Retry-After when the database refuses connections (restarting)", async () => {
    captureLog();
    database = await openDatabase({ kind: "postgres", url: `postgres://parley:parley@127.0.0.1:${await closedPort()}/parley` });
    await expectComeBackLater(await answerOver(database.db));
  });

  it.each([
    ["shutting down (57P01)", "57P01", "terminating connection due to administrator command"],
    ["starting up (57P03)", "57P03", "the database system is starting up"],
  ])("is answered 503 with Retry-After when the server says it is %s", async (_what, code, text) => {
    captureLog();
    const db = await databaseAnswering(({ socket }) => socket.end(errorResponse("FATAL", code, text)));
    await expectComeBackLater(await answerOver(db));
  });

  it("is answered 503 with Retry-After when the connection is lost in the middle of a query", async () => {
    captureLog();
    const db = await databaseAnswering(({ socket }) => socket.destroy());
    await expectComeBackLater(await answerOver(db));
  });

  it("is answered 503 by the route itself too: here the one that holds a waiting read (?wait=30)", async () => {
    captureLog();
    database = await openDatabase({ kind: "postgres", url: `postgres://parley:parley@127.0.0.1:${await closedPort()}/parley` });
    state.db = database.db;
    const { GET } = await import("@/app/api/v1/asks/[id]/route");
    const request = new Request("http://127.0.0.1/api/v1/asks/0190a4b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b?wait=30", { headers: { authorization: "Bearer pk_abcdefghijklmnopqrstuvwxyz012345" } });
    await expectComeBackLater(await GET(request, { params: Promise.resolve({ id: "0190a4b2-3c4d-7e5f-8a6b-7c8d9e0f1a2b" }) }));
  });

  it("but a query that fails on a reachable database is still Parley's failure: 500, logged", async () => {
    const log = captureLog();
    const db = await databaseAnswering(({ socket }) => socket.write(Buffer.concat([errorResponse("ERROR", "XX000", "internal error"), readyForQuery])));
    const response = await answerOver(db);
    expect(response.status).toBe(500);
    expect(response.headers.get("retry-after")).toBeNull();
    expect((await response.json()) as unknown).toMatchObject({ error: { code: "internal" } });
    expect(log.lines().filter((line) => line.level === "error")).toHaveLength(1);
  });
});
