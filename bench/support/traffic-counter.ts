import net from "node:net";

/** What went over the wire between clients and PostgreSQL since the last reset. */
export interface Traffic {
  /**
   * Round trips: how many times a client sent something after the server had last spoken (or on a
   * new connection). Pipelined statements sent together count once.
   */
  roundTrips: number;
  /** Bytes from the clients to the server. */
  bytesSent: number;
  /** Bytes from the server to the clients. */
  bytesReceived: number;
  /** Connections opened. */
  connections: number;
}

/** A loopback TCP relay in front of PostgreSQL that counts round trips and bytes. */
export interface TrafficCounter {
  /** `url` with its host and port replaced by the relay's. */
  readonly url: string;
  read(): Traffic;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts a relay to the server at `url`. It is for profiling only: it adds a hop, so timings are
 * never taken through it.
 */
export async function startTrafficCounter(url: string): Promise<TrafficCounter> {
  const target = new URL(url);
  let traffic: Traffic = { roundTrips: 0, bytesSent: 0, bytesReceived: 0, connections: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    traffic.connections++;
    const upstream = net.connect({ host: target.hostname, port: Number(target.port || 5432) });
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    let serverSpokeLast = true;
    client.on("data", (chunk: Buffer) => {
      traffic.bytesSent += chunk.length;
      if (serverSpokeLast) traffic.roundTrips++;
      serverSpokeLast = false;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      traffic.bytesReceived += chunk.length;
      serverSpokeLast = true;
      client.write(chunk);
    });
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address() as net.AddressInfo;
  const relayed = new URL(url);
  relayed.hostname = "127.0.0.1";
  relayed.port = String(address.port);
  return {
    url: relayed.toString(),
    read: () => ({ ...traffic }),
    reset() {
      traffic = { roundTrips: 0, bytesSent: 0, bytesReceived: 0, connections: 0 };
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
