import net from "node:net";

/**
 * A TCP server speaking just enough of PostgreSQL's wire protocol to drive postgres.js through a
 * server going away: it trusts every start-up (no TLS, no password) and hands each query to the test.
 * Clients must be made with `fetch_types: false`.
 */

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, "latin1");
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

/** An ErrorResponse message: `FATAL` ends the session, `ERROR` only the query. */
export function errorResponse(severity: "ERROR" | "FATAL", code: string, text: string): Buffer {
  const fields = [`S${severity}`, `V${severity}`, `C${code}`, `M${text}`].map((field) => `${field}\0`).join("");
  return message("E", Buffer.from(`${fields}\0`, "utf8"));
}

/** ReadyForQuery, outside a transaction. */
export const readyForQuery = message("Z", Buffer.from("I"));
const authenticationOk = message("R", Buffer.from([0, 0, 0, 0]));

/** One client connection: its number (from 1), its socket, and the types of the messages it sent. */
export interface FakeConnection {
  readonly number: number;
  readonly socket: net.Socket;
  readonly received: string[];
}

export interface FakePostgres {
  readonly port: number;
  readonly connections: FakeConnection[];
  close(): Promise<void>;
}

/** Starts the server on loopback; `onQuery` is called at the end of each query a client sends (Sync, or a simple Query). */
export async function startFakePostgres(onQuery: (connection: FakeConnection) => void = () => {}): Promise<FakePostgres> {
  const connections: FakeConnection[] = [];
  const server = net.createServer((socket) => {
    const connection: FakeConnection = { number: connections.length + 1, socket, received: [] };
    connections.push(connection);
    let pending = Buffer.alloc(0);
    let started = false;
    socket.on("error", () => {});
    socket.on("data", (data) => {
      pending = Buffer.concat([pending, data]);
      for (;;) {
        if (!started) {
          if (pending.length < 4 || pending.length < pending.readInt32BE(0)) return;
          pending = pending.subarray(pending.readInt32BE(0));
          started = true;
          connection.received.push("startup");
          socket.write(Buffer.concat([authenticationOk, readyForQuery]));
          continue;
        }
        if (pending.length < 5 || pending.length < 1 + pending.readInt32BE(1)) return;
        const type = String.fromCharCode(pending[0]!);
        pending = pending.subarray(1 + pending.readInt32BE(1));
        connection.received.push(type);
        if (type === "S" || type === "Q") onQuery(connection);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections,
    close: async () => {
      for (const { socket } of connections) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
