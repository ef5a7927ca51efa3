import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chatCompletion } from "@/tests/integration/models/fake-provider-server";

/** What the provider does with the next chat completion request. */
export type ProviderBehaviour =
  /** Answers at once with an HTTP error, as an overloaded provider does. */
  | { kind: "error"; status: number; message: string }
  /** Holds the request, then answers 504: the gateway in front of the model gave up waiting for it. */
  | { kind: "gateway-timeout"; afterMs: number }
  /** Holds the request, then drops the connection without a word. */
  | { kind: "drop"; afterMs: number }
  /** Answers with the assistant's text. */
  | { kind: "reply"; text: string };

/** An OpenAI-compatible endpoint on loopback whose behaviour the test sets request by request. */
export interface FlakyModelProvider {
  /** `http://127.0.0.1:<port>/v1`, for PARLEY_MODEL_BASE_URL. */
  baseUrl: string;
  behaviour: ProviderBehaviour;
  /** How many chat completion requests it received. */
  requests(): number;
  close(): Promise<void>;
}

export async function startFlakyModelProvider(initial: ProviderBehaviour): Promise<FlakyModelProvider> {
  let received = 0;
  const provider = { behaviour: initial } as FlakyModelProvider;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received++;
      const behaviour = provider.behaviour;
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(body));
      };
      switch (behaviour.kind) {
        case "error":
          return send(behaviour.status, { error: { message: behaviour.message, type: "server_error" } });
        case "gateway-timeout":
          return void setTimeout(() => send(504, { error: { message: "upstream request timed out", type: "timeout" } }), behaviour.afterMs);
        case "drop":
          return void setTimeout(() => request.socket.destroy(), behaviour.afterMs);
        case "reply": {
          const { status, body } = chatCompletion({ content: behaviour.text });
          return send(status, body);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  provider.baseUrl = `http://127.0.0.1:${port}/v1`;
  provider.requests = () => received;
  provider.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return provider;
}
