import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { errorResponse, type FakePostgres, readyForQuery, startFakePostgres } from "../support/fake-postgres";

/**
 * postgres.js 3.4.9 keeps a FATAL error that arrived while a query ran (PostgreSQL restarting:
 * "terminating connection due to administrator command") past the socket's close, and hands it to the
 * first query of the connection's next start-up, which never reaches the server (porsager/postgres#1223).
 * patches/postgres+3.4.9.patch clears it when the socket closes; without the patch this test fails.
 */

let server: FakePostgres | null = null;
let sql: postgres.Sql | null = null;

afterEach(async () => {
  await sql?.end({ timeout: 0 });
  await server?.close();
  sql = server = null;
});

describe("a connection whose server restarted under a query", () => {
  it("sends the next query to the server on a new connection, instead of failing it with the old error", async () => {
    server = await startFakePostgres((connection) => {
      if (connection.number === 1) {
        connection.socket.end(errorResponse("FATAL", "57P01", "terminating connection due to administrator command"));
      } else {
        connection.socket.write(Buffer.concat([errorResponse("ERROR", "XX000", `query reached the server on connection ${connection.number}`), readyForQuery]));
      }
    });
    sql = postgres({ host: "127.0.0.1", port: server.port, username: "parley", database: "parley", max: 1, fetch_types: false, connect_timeout: 5, onnotice: () => {} });

    await expect(sql`select 1`).rejects.toThrow();
    await expect(sql`select 2`).rejects.toThrow("query reached the server on connection 2");
    expect(server.connections.map(({ received }) => received[0])).toEqual(["startup", "startup"]);
  });
});
