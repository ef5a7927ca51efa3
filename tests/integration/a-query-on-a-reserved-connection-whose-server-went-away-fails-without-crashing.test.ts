import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { errorResponse, type FakePostgres, readyForQuery, startFakePostgres } from "../support/fake-postgres";

/**
 * postgres.js 3.4.9 writes small messages on the next tick; on a connection whose socket has closed —
 * a reserved one, kept by its holder — that write meets a null socket and throws a TypeError outside
 * any query: an uncaught exception that ends the process, while the query never settles
 * (porsager/postgres#1154, #1208). patches/postgres+3.4.9.patch settles the query with
 * CONNECTION_CLOSED instead; without the patch this test fails.
 */

let server: FakePostgres | null = null;
let sql: postgres.Sql | null = null;

afterEach(async () => {
  await sql?.end({ timeout: 0 });
  await server?.close();
  sql = server = null;
});

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms))]);
}

describe("a query on a reserved connection whose server went away", () => {
  it("is refused with CONNECTION_CLOSED", async () => {
    server = await startFakePostgres(({ socket }) => socket.write(Buffer.concat([errorResponse("ERROR", "XX000", "answered"), readyForQuery])));
    let closed!: () => void;
    const socketClosed = new Promise<void>((resolve) => (closed = resolve));
    sql = postgres({ host: "127.0.0.1", port: server.port, username: "parley", database: "parley", max: 1, fetch_types: false, onnotice: () => {}, onclose: () => closed() });

    // The pool's connection is opened by a query first: postgres.js 3.4.9 never hands over a connection
    // it opened for reserve() when it fetches no types (fetch_types: false).
    await expect(sql`select 1`).rejects.toThrow("answered");
    const reserved = await sql.reserve();
    server.connections[0]!.socket.end();
    await socketClosed;

    await expect(within(reserved`select 1`, 5_000)).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
  });
});
