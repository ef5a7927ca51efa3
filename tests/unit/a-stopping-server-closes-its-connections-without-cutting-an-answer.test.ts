import { Agent, createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { closeHttpConnections, httpConnectionsClosed, watchHttpConnections } from "@/lib/server/http-connections";

/** A GET over `agent`, read to the end: its status, `Connection` header and body, or the error that ended it. */
function get(port: number, agent: Agent, path: string): Promise<{ status?: number; connection?: string; body?: string; error?: string; socket?: Socket }> {
  return new Promise((resolve) => {
    let socket: Socket | undefined;
    const sent = httpRequest({ host: "127.0.0.1", port, path, agent }, (response: IncomingMessage) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, connection: response.headers.connection!, body, socket }));
    });
    sent.on("socket", (each: Socket) => (socket = each));
    sent.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    sent.end();
  });
}

describe("a stopping server's HTTP connections", () => {
  // Answers /slow after the test lets it go, everything else at once; a long answer, written in pieces.
  let releaseSlow = () => {};
  const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));
  const slowStarted: { resolve: () => void; promise: Promise<void> } = (() => {
    let resolve = () => {};
    const promise = new Promise<void>((done) => (resolve = done));
    return { resolve, promise };
  })();
  watchHttpConnections();
  const server = createServer((request, response) => {
    if (request.url === "/slow") {
      slowStarted.resolve();
      void slowReleased.then(() => {
        response.writeHead(200, { "content-type": "text/plain" });
        for (let piece = 0; piece < 64; piece++) response.write("x".repeat(16_384));
        response.end("done");
      });
      return;
    }
    response.end("quick");
  });
  server.keepAliveTimeout = 65_000;
  const agents: Agent[] = [];
  afterAll(() => {
    for (const agent of agents) agent.destroy();
    server.closeAllConnections();
  });

  it("takes no new connection, closes idle ones at once, and closes one with an answer under way only once the answer is written out", async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const idle = new Agent({ keepAlive: true, maxSockets: 1 });
    const busy = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(idle, busy);

    // A kept-alive connection with nothing under way, and one with an answer under way.
    const first = await get(port, idle, "/quick");
    expect(first).toMatchObject({ status: 200, connection: "keep-alive", body: "quick" });
    const idleSocketClosed = new Promise<void>((resolve) => first.socket!.once("close", () => resolve()));
    const slow = get(port, busy, "/slow");
    await slowStarted.promise;

    closeHttpConnections();
    let allClosed = false;
    const closed = httpConnectionsClosed().then(() => (allClosed = true));

    // The idle connection closes at once; a new one is refused.
    await idleSocketClosed;
    expect(await get(port, new Agent({ keepAlive: true }), "/quick")).toEqual({ error: "ECONNREFUSED" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(allClosed).toBe(false);

    // The answer under way arrives whole, saying the connection closes after it; then every connection is closed.
    releaseSlow();
    const answer = await slow;
    expect(answer).toMatchObject({ status: 200, connection: "close" });
    expect(answer.body).toHaveLength(64 * 16_384 + "done".length);
    await closed;
    expect(allClosed).toBe(true);
  });
});
