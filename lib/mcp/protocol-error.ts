import { McpError } from "@modelcontextprotocol/sdk/types.js";

/**
 * A JSON-RPC error Parley's MCP server answers a request with: `code`, `message` and `data` go on
 * the wire as they are. Not the SDK's `McpError`, whose message already reads "MCP error <code>: …"
 * — the client's SDK puts that in front of what it receives, so a thrown `McpError` reaches the
 * caller saying it twice.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "ProtocolError";
  }
}

/** `error` with the "MCP error <code>: " the SDK's `McpError` puts in its message taken off, so the client's own is the only one. */
export function withoutCodePrefix(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const prefix = `MCP error ${error.code}: `;
  return new ProtocolError(error.code, error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message, error.data);
}

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * Makes every request handler `server` has (the SDK's own and Parley's) answer an `McpError` with
 * its message as the client should read it, said once ({@link withoutCodePrefix}). Call it after
 * the last handler is set. The SDK gives no public way to reach its handlers; it is pinned, and this
 * fails at once, not quietly, if a version keeps them elsewhere.
 */
export function answerErrorsWithoutCodePrefix(server: { server: object }): void {
  const handlers = (server.server as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error("The MCP SDK keeps its request handlers where Parley does not look.");
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        throw withoutCodePrefix(error);
      }
    });
  }
}
