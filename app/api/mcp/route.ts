import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getAskService } from "@/lib/asks/configured";
import { getDb } from "@/lib/database";
import { createParleyMcpServer } from "@/lib/mcp/parley-mcp-server";
import { apiRoute, authenticateApiRequest } from "@/lib/server/api-request";

export const dynamic = "force-dynamic";

/**
 * Parley's MCP server over Streamable HTTP, stateless: every request authenticates with an agent key
 * (401 before any MCP message is read) and gets its own server and transport, so any instance can
 * answer any request and nothing is kept between them.
 */
async function handle(request: Request): Promise<Response> {
  return apiRoute(async () => {
    const key = await authenticateApiRequest(request, "agent");
    const [service, db] = await Promise.all([getAskService(), getDb()]);
    const server = createParleyMcpServer({ service, db, key, signal: request.signal });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: false });
    await server.connect(transport);
    // The server and transport live as long as this request: closed when the client goes away or the response ends.
    request.signal.addEventListener("abort", () => void server.close().catch(() => {}), { once: true });
    return transport.handleRequest(request);
  });
}

export { handle as GET, handle as POST, handle as DELETE };
