import { connect } from "node:net";
import { expect, test } from "./fixtures";

/** Sends one request on an open socket and resolves with the status line of its reply. */
function request(socket: ReturnType<typeof connect>, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let reply = "";
    const onData = (chunk: Buffer) => {
      reply += chunk.toString("latin1");
      // The sign-in page is small; its end is the end of the chunked body.
      if (reply.includes("\r\n0\r\n\r\n") || /content-length: 0\r\n/i.test(reply)) {
        socket.off("data", onData);
        resolve(reply.split("\r\n")[0]!);
      }
    };
    socket.on("data", onData);
    socket.once("error", reject);
    socket.write(`GET /login HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

test("a kept-alive connection left idle for ten seconds is still open for the client's next request", async ({ baseURL }) => {
  test.setTimeout(60_000);
  const url = new URL(baseURL!);
  const socket = connect(Number(url.port), url.hostname);
  let closedAt: number | undefined;
  socket.on("close", () => (closedAt = Date.now()));
  try {
    expect(await request(socket, url.host)).toMatch(/^HTTP\/1\.1 200/);
    // A client reuses an idle connection whenever it likes; one the server has just closed fails it with ECONNRESET.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    expect(closedAt, "the server closed the idle connection").toBeUndefined();
    expect(await request(socket, url.host)).toMatch(/^HTTP\/1\.1 200/);
  } finally {
    socket.destroy();
  }
});
