import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

/** What the receiver does with the nth request (0-based): answer with a status, or never answer. */
export type WebhookResponse = { status: number; headers?: Record<string, string> } | "hang";

/** A real HTTP receiver on 127.0.0.1 that records every request it gets. */
export async function startWebhookReceiver(respond: (index: number, request: ReceivedWebhook) => WebhookResponse) {
  const received: ReceivedWebhook[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const webhook = { headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), receivedAt: Date.now() };
      received.push(webhook);
      const answer = respond(received.length - 1, webhook);
      if (answer === "hang") return;
      response.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
      response.end(`status ${answer.status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/parley`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
