import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getAskService } from "@/lib/asks/configured";
import { getDb } from "@/lib/database";
import { AppError } from "@/lib/errors";
import { isAllowedOrigin } from "@/lib/mcp/allowed-origin";
import { createParleyMcpServer } from "@/lib/mcp/parley-mcp-server";
import { apiRoute, authenticateApiRequest, readJsonBody } from "@/lib/server/api-request";
import { untilShutdown } from "@/lib/server/shutdown";

export const dynamic = "force-dynamic";

/**
 * The largest MCP message read: above the HTTP API's 256 KB so that an over-long `question` reaches
 * `ask_person` and is refused there as a tool error naming it, rather than as a transport failure.
 */
const MCP_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * What a 401 says it wants (RFC 6750): an API key sent as a bearer token. Without it a client such
 * as MCP Inspector takes the 401 for an OAuth server's and starts a sign-in flow Parley does not have.
 */
function wwwAuthenticate(request: Request): string {
  const sent = /^Bearer\s+\S/i.test(request.headers.get("authorization") ?? "");
  const description = sent ? "This API key is unknown or was revoked" : "Send an agent API key: Authorization: Bearer <key>";
  return `Bearer realm="Parley"${sent ? ', error="invalid_token"' : ""}, error_description="${description}"`;
}

/**
 * Parley's MCP server over Streamable HTTP, stateless: every request authenticates with an agent key
 * (401 before any MCP message is read) and gets its own server and transport, so any instance can
 * answer any request and nothing is kept between them. Only POST: a stateless server has no stream
 * for a GET to open (the SDK would hold it open for nothing) and no session for a DELETE to end.
 */
export async function POST(request: Request): Promise<Response> {
  const response = await serve(request);
  if (response.status === 401) response.headers.set("www-authenticate", wwwAuthenticate(request));
  return response;
}

function serve(request: Request): Promise<Response> {
  return apiRoute(request, "/api/mcp", async () => {
    // Before the key: a page on another site (a DNS-rebinding attack) is turned away whatever it sends.
    if (!isAllowedOrigin(request.headers.get("origin"))) {
      throw new AppError("forbidden", "This Origin may not call Parley's MCP server: only Parley's own address and pages on this machine may.");
    }
    const key = await authenticateApiRequest(request, "agent");
    // Read as the HTTP API reads bodies, so a NUL, half a surrogate pair or deep nesting is refused before any tool sees it.
    const body = await readJsonBody(request, MCP_BODY_LIMIT_BYTES);
    if (body === null || typeof body !== "object" || (Array.isArray(body) && body.length === 0)) {
      throw new AppError("invalid_input", "Send a JSON-RPC message (an object) as the body.");
    }
    const [service, db] = await Promise.all([getAskService(), getDb()]);
    // A wait for an answer ends with the ask as it is when the client goes away or this process begins to stop.
    const server = createParleyMcpServer({ service, db, key, signal: untilShutdown(request.signal) });
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
