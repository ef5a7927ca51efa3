import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake provider received, with its JSON body parsed. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the fake provider answers: a status and a JSON body, or `"hang"` to never answer. */
export type FakeReply = { status: number; body: unknown } | "hang";

/** A model provider on 127.0.0.1 that records what it receives and answers as it is told. */
export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>/v1`, as a base URL for the provider. */
  baseUrl: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * Starts a real HTTP server on a random loopback port, so the provider's own request and response
 * code runs unchanged. `reply` sees each request (its index counts from 0) and says what to send.
 */
export async function startFakeProviderServer(
  reply: (request: ReceivedRequest, index: number) => FakeReply,
): Promise<FakeProviderServer> {
  const requests: ReceivedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request: ReceivedRequest = {
        method: incoming.method ?? "",
        path: incoming.url ?? "",
        headers: incoming.headers,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      };
      requests.push(request);
      const answer = reply(request, requests.length - 1);
      if (answer === "hang") return;
      outgoing.writeHead(answer.status, { "content-type": "application/json" });
      outgoing.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // A hanging request keeps its socket open; close would otherwise wait for it forever.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A non-streaming chat-completions response with the given assistant message. */
export function chatCompletion(
  message: { content: string | null; tool_calls?: { id: string; name: string; arguments: unknown }[] },
  model = "test-model",
): { status: number; body: unknown } {
  const toolCalls = message.tool_calls?.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return {
    status: 200,
    body: {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 1_767_225_600,
      model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: message.content, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
          finish_reason: toolCalls ? "tool_calls" : "stop",
        },
      ],
      usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
    },
  };
}
