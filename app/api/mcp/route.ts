import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getAskService } from "@/lib/asks/configured";
import { getDb } from "@/lib/database";
import { AppError } from "@/lib/errors";
import { createParleyMcpServer } from "@/lib/mcp/parley-mcp-server";
import { apiRoute, authenticateApiRequest, readJsonBody } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

/**
 * The largest MCP message read: above the HTTP API's 256 KB so that an over-long `question` reaches
 * `ask_person` and is refused there as a tool error naming it, rather than as a transport failure.
 */
const MCP_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * Parley's MCP server over Streamable HTTP, stateless: every request authenticates with an agent key
 * (401 before any MCP message is read) and gets its own server and transport, so any instance can
 * answer any request and nothing is kept between them. Only POST: a stateless server has no stream
 * for a GET to open (the SDK would hold it open for nothing) and no session for a DELETE to end.
 */
export function POST(request: Request): Promise<Response> {
  return apiRoute(async () => {
    const key = await authenticateApiRequest(request, "agent");
    // Read as the HTTP API reads bodies, so a NUL, half a surrogate pair or deep nesting is refused before any tool sees it.
    const body = await readJsonBody(request, MCP_BODY_LIMIT_BYTES);
    if (body === null || typeof body !== "object" || (Array.isArray(body) && body.length === 0)) {
      throw new AppError("invalid_input", "Send a JSON-RPC message (an object) as the body.");
    }
    const [service, db] = await Promise.all([getAskService(), getDb()]);
    const server = createParleyMcpServer({ service, db, key, signal: request.signal });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    // The server and transport live as long as this request: closed when the client goes away.
    request.signal.addEventListener("abort", () => void server.close().catch(() => {}), { once: true });
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (!response.body) {
      await server.close();
      return response;
    }
    // …and once the response has been sent, so a finished request leaves nothing behind.
    const closeAfter = new TransformStream<Uint8Array, Uint8Array>({ flush: () => void server.close().catch(() => {}) });
    return new Response(response.body.pipeThrough(closeAfter), { status: response.status, headers: response.headers });
  });
}
